// Bundles a snippet with esbuild the way a shop's build would (bundle, minify, ES2022, browser) and measures
// each output file gzipped at level 9 (or hands the files over, for a page that serves them). Nothing is written to disk.
import { gzipSync } from 'node:zlib';
import { build } from 'esbuild';
import { at } from './stack.mjs';

export const gzipSize = (bytes) => gzipSync(bytes, { level: 9 }).byteLength;

/**
 * Replaces Node built-ins that a browser package imports with an empty module, as Vite does for the browser
 * (its "browser-external" stub); a shop's bundler needs the same before it builds at all.
 */
const emptyModules = (names) => ({
  name: 'empty-modules',
  setup(builder) {
    const filter = new RegExp(`^(node:)?(${names.join('|')})$`);
    builder.onResolve({ filter }, (args) => ({ path: args.path, namespace: 'empty-module' }));
    builder.onLoad({ filter: /.*/, namespace: 'empty-module' }, () => ({ contents: 'export default {};', loader: 'js' }));
  },
});

/** Bundles `contents` (an ES module) as a shop's build would; answers esbuild's output files (JS, and CSS if any). */
export async function bundleFiles(contents, { format = 'iife', external = [], empty = [] } = {}) {
  const result = await build({
    stdin: { contents, resolveDir: at('.').pathname, loader: 'js' },
    bundle: true,
    minify: true,
    target: 'es2022',
    platform: 'browser',
    format,
    external,
    outdir: at('bench/.out/').pathname,
    write: false,
    logLevel: 'silent',
    legalComments: 'none',
    plugins: empty.length ? [emptyModules(empty)] : [],
  });
  return result.outputFiles;
}

/** Bundles `contents` (an ES module); answers the gzip size of its JS and of its CSS (0 when it has none). */
export async function bundleSnippet(contents, options) {
  const files = await bundleFiles(contents, options);
  const sizeOf = (ext) => files.filter((file) => file.path.endsWith(ext)).reduce((sum, file) => sum + gzipSize(file.contents), 0);
  const rawOf = (ext) => files.filter((file) => file.path.endsWith(ext)).reduce((sum, file) => sum + file.contents.byteLength, 0);
  return { js: sizeOf('.js'), css: sizeOf('.css'), jsRaw: rawOf('.js'), cssRaw: rawOf('.css') };
}
