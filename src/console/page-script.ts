/**
 * The console page's script as text, for the console's router to serve (src/console-api/console-page.ts). In the
 * sources there is none; the console build (vite.console.config.ts) writes dist/console/page-script.js over the
 * one compiled from this file, with the built script's text. Imported by a plain specifier, so that bundlers of
 * the proxy (a worker's) carry it along.
 */
const script: string | undefined = undefined;
export default script;
