/**
 * The script-tag build: dist/payin-checkout.iife.js, the core that a shop adds with
 * `<script src=".../payin-checkout.iife.js"></script>` and nothing else, and beside it the files the core loads
 * when it needs them. Lit is bundled into the core; a QR encoder (lean-qr's nano build) only into the qr-encoder
 * part, since the proxy sends each QR's module matrix. The ES module build comes from tsc (tsconfig.build.json) into the same
 * dist/, so this build must never empty the folder. The React demo has its own config (demo/react/vite.config.ts).
 * The plugins live in build/, one file each; this file says what they do to the script and in which order.
 *
 * Beside the core (each an ES module, found from the script's own address, so a shop copies the files and adds
 * nothing else):
 * - dist/payin-checkout.<part>.part.js, the on-demand parts (src/widget/parts/): the script-tag build swaps
 *   parts/catalog.ts for catalog.script.ts, which finds them; the ES module build imports them dynamically.
 * - dist/payin-checkout.<lang>.js, every language but English: the script-tag build swaps
 *   translations/languages.ts for languages.script.ts, which finds them. English is in the core, but for the
 *   texts of the parts' screens, which come with each part (translations/en.ts swapped for en.script.ts).
 *
 * After the bundle, the same run writes the framework typings (dist/jsx/react.d.ts, preact.d.ts, vue.d.ts) from
 * custom-elements.json, so that they can never drift from the element: the manifest is generated from the
 * element's JSDoc by `cem analyze`, which therefore runs before this build.
 */
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';
import { jsxTypings } from './build/jsx-typings.js';
import { languageFiles } from './build/language-files.js';
import { minifyTemplates } from './build/minify-templates.js';
import { partFiles } from './build/part-files.js';
import { LANGUAGE_TAGS } from './src/widget/translations/language-tags.js';

/** The on-demand parts (src/widget/parts/<part>.ts): each becomes dist/payin-checkout.<part>.part.js. */
const PARTS = ['phone', 'upi-apps', 'sbp-banks', 'results', 'qr-encoder'];

/** The script-tag build's own module in place of the ES module build's (`./x.js` -> src/widget/<folder>/x.script.ts). */
const scriptOnly = (name: string, folder: string) => ({
  find: new RegExp(`^\\./${name}\\.js$`),
  replacement: fileURLToPath(new URL(`src/widget/${folder}/${name}.script.ts`, import.meta.url)),
});

export default defineConfig({
  // Nothing in public/ belongs in the bundle's folder.
  publicDir: false,
  plugins: [
    minifyTemplates(),
    languageFiles(LANGUAGE_TAGS),
    partFiles(PARTS),
    jsxTypings({ manifest: 'custom-elements.json', outDir: 'dist/jsx' }),
  ],
  resolve: {
    alias: [scriptOnly('languages', 'translations'), scriptOnly('en', 'translations'), scriptOnly('catalog', 'parts')],
  },
  build: {
    outDir: 'dist',
    emptyOutDir: false,
    target: 'es2022',
    minify: true,
    sourcemap: false,
    copyPublicDir: false,
    lib: {
      entry: 'src/widget/index.ts',
      formats: ['iife'],
      name: 'PayinCheckout',
      fileName: () => 'payin-checkout.iife.js',
    },
    // The core is a classic script, which a browser decodes in the page's encoding unless the server names one: on
    // a windows-1252 page a UTF-8 "…" reads "â€¦". Escaped, every character reads the same in any encoding. (The
    // parts and languages beside it are modules, which a browser always reads as UTF-8.)
    rolldownOptions: { output: { charset: 'ascii' } },
  },
});
