// @ts-check
/**
 * The two browser builds only the demo needs, made when the demo starts (after `npm run build`):
 * - the ES module build bundled into one file for the ES-module page (dist/widget imports `lit` and
 *   `lean-qr` (the qr-encoder part's encoder) by bare name; a shop's bundler does this step, a browser cannot);
 * - the React app, built with Vite into demo/react/dist, again only when a source is newer than the last build.
 */
import { readdirSync, statSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const REPO = fileURLToPath(new URL('../../', import.meta.url));
const WIDGET_ENTRY = join(REPO, 'dist/widget/index.js');
const REACT_ROOT = join(REPO, 'demo/react');
const REACT_OUT = join(REACT_ROOT, 'dist/index.html');

/** The element and everything it imports, as one ES module. Built once, on first request. */
export function widgetModuleBundle() {
  /** @type {Promise<string> | undefined} */
  let bundle;
  return () => {
    bundle ??= (async () => {
      if (!existsSync(WIDGET_ENTRY)) throw new Error('dist/widget/index.js is missing: run `npm run build`.');
      const { build } = await import('esbuild');
      const result = await build({
        entryPoints: [WIDGET_ENTRY],
        bundle: true,
        format: 'esm',
        target: 'es2022',
        minify: true,
        write: false,
        logLevel: 'silent',
      });
      return /** @type {import('esbuild').OutputFile} */ (result.outputFiles[0]).text;
    })();
    return bundle;
  };
}

/**
 * Newest modification time under `path` (a file or a folder), bounded to a few thousand entries.
 * @param {string} path
 */
function newest(path) {
  if (!existsSync(path)) return 0;
  const info = statSync(path);
  if (!info.isDirectory()) return info.mtimeMs;
  let time = 0;
  const entries = readdirSync(path, { recursive: true, withFileTypes: true }).slice(0, 5000);
  for (const entry of entries) {
    if (entry.isFile()) time = Math.max(time, statSync(join(entry.parentPath ?? entry.path, entry.name)).mtimeMs);
  }
  return time;
}

/**
 * Builds the React app unless its output is newer than its sources and the widget build.
 * @param {(line: string) => void} log
 */
export async function ensureReactApp(log) {
  const sources = Math.max(
    newest(join(REACT_ROOT, 'src')),
    newest(join(REACT_ROOT, 'index.html')),
    newest(join(REACT_ROOT, 'vite.config.ts')),
    newest(join(REPO, 'dist/widget')),
  );
  if (existsSync(REACT_OUT) && statSync(REACT_OUT).mtimeMs >= sources) return;
  log('Building the React app (demo/react)...');
  const { build } = await import('vite');
  await build({ configFile: join(REACT_ROOT, 'vite.config.ts'), logLevel: 'warn' });
}
