/**
 * The script-tag build: one self-contained file, dist/payin-checkout.iife.js, that a shop adds with
 * `<script src=".../payin-checkout.iife.js"></script>` and nothing else. Lit and qrcode are bundled in (qrcode
 * is CommonJS: build/qrcode-as-modules.ts loads its core files as ES modules). The ES module build comes from tsc
 * (tsconfig.build.json) into the same dist/, so this build must never empty the folder. The React demo has its own
 * config (demo/react/vite.config.ts). The plugins live in build/, one file each; this file says what they do to
 * the script and in which order.
 *
 * English is in the bundle; every other language is its own small file beside it (dist/payin-checkout.<lang>.js,
 * an ES module whose default export is the translation), which the script loads when an element first speaks it:
 * the script-tag build swaps src/widget/translations/languages.ts for languages.script.ts, which finds them.
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
import { qrcodeAsModules } from './build/qrcode-as-modules.js';
import { screenNames, translationKeys } from './build/short-names.js';
import { terserPass } from './build/terser-pass.js';
import { QR_LEVEL_NAME } from './src/widget/qr-level.js';
import { LANGUAGE_TAGS } from './src/widget/translations/language-tags.js';

/**
 * Properties that only the element's own modules read and write (controller members, the options the controllers
 * are built with, the flow's state, the screens' context, and on the last line the qrcode core's mask patterns,
 * penalty weights, Reed-Solomon encoder and bit matrix), renamed by the minifier like local variables. A name
 * belongs here only if nothing outside the bundle sees it: not Lit's lifecycle, not the public API (`start`,
 * `payment`, attributes), not the proxy's JSON or what sessionStorage keeps, and not a translation key (the
 * language files are built apart, and a shop's `texts` name them), nor a screen's name (the translations'
 * headings and hints are keyed by it and read as `t.headings[screen]`: so not the flow state's `late`; the build
 * checks these two), and no DOM or host object, and no other module of the bundle, has a property of that name (so
 * not qrcode's `size`, `data`, `get`, `set` or `encode`).
 */
const INTERNAL_PROPERTIES = new RegExp(
  `^(?:${`countdown feed tabs sync announcedSeconds remainingMs toExpiryMs setTarget follow leading leave stop stuck
  tapped banks want onZero onPayment onTrouble onFatal onDeadline onLead onPeerPayment phase trouble stalled flow
  isPhone bankQuery filterBanks setOtherDevice record retryAfterMs toDetail streamOpen failures
  interval isDark PATTERN\\d+ N[1-4] genPoly degree initialize reservedBit isReserved xor`
    .split(/\s+/)
    .join('|')})$`,
);

for (const name of [...screenNames(), ...translationKeys()]) {
  if (INTERNAL_PROPERTIES.test(name))
    throw new Error(`INTERNAL_PROPERTIES has "${name}", a screen's name or a translation key: English would lose that key`);
}

export default defineConfig({
  // Nothing in public/ belongs in the bundle's folder.
  publicDir: false,
  plugins: [
    qrcodeAsModules({ level: QR_LEVEL_NAME }),
    minifyTemplates(),
    terserPass(),
    // Each language beyond English becomes dist/payin-checkout.<lang>.js, loaded on demand from beside the script.
    languageFiles(LANGUAGE_TAGS),
    jsxTypings({ manifest: 'custom-elements.json', outDir: 'dist/jsx' }),
  ],
  resolve: {
    alias: [
      {
        find: /^\.\/languages\.js$/,
        replacement: fileURLToPath(new URL('src/widget/translations/languages.script.ts', import.meta.url)),
      },
    ],
  },
  build: {
    outDir: 'dist',
    emptyOutDir: false,
    target: 'es2022',
    minify: true,
    sourcemap: false,
    rolldownOptions: {
      output: {
        // No Symbol.toStringTag on the PayinCheckout global: nothing reads it, and it costs bytes.
        generatedCode: { symbols: false },
        minify: { compress: true, mangle: true, mangleProps: { include: INTERNAL_PROPERTIES } },
      },
    },
    copyPublicDir: false,
    lib: {
      entry: 'src/widget/index.ts',
      formats: ['iife'],
      name: 'PayinCheckout',
      fileName: () => 'payin-checkout.iife.js',
    },
  },
});
