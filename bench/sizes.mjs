// Figure 1, sizes (gzip level 9) of real builds, ours and the peers' in the same run: the script-tag build
// dist/payin-checkout.iife.js as `npm run build` wrote it, every language file beside it
// (dist/payin-checkout.<lang>.js), lit alone, the qrcode core alone, and our ES module entry bundled with and
// without its dependencies, to show where the bytes are. Peers come from bench/peers.mjs.
import { readdirSync, readFileSync } from 'node:fs';
import { measurePeers } from './peers.mjs';
import { bundleSnippet, gzipSize } from './support/bundle.mjs';
import { kB, ratio, verdict } from './support/format.mjs';
import { commandOf, report } from './support/section.mjs';
import { at } from './support/stack.mjs';

const command = commandOf('sizes.mjs');
const AIM = 20_000;
const LANGUAGE_AIM = 3_000;

const iife = gzipSize(readFileSync(at('dist/payin-checkout.iife.js')));
const languages = readdirSync(at('dist/'))
  .filter((name) => /^payin-checkout\.[^.]+\.js$/.test(name) && name !== 'payin-checkout.iife.js')
  .map((name) => ({ name, gzip: gzipSize(readFileSync(at(`dist/${name}`))) }));
const lit = await bundleSnippet(
  "export { LitElement, html, svg, css, nothing } from 'lit'; export { property, state } from 'lit/decorators.js';",
);
const qrcode = await bundleSnippet("export { create } from 'qrcode/lib/core/qrcode.js';");
const esm = await bundleSnippet("export * from './dist/widget/index.js';", { format: 'esm' });
const own = await bundleSnippet("export * from './dist/widget/index.js';", {
  format: 'esm',
  external: ['lit', 'lit/*', 'qrcode', 'qrcode/*'],
});
const peers = await measurePeers();
const adyen = peers.adyen;
const adyenTotal = adyen.error ? undefined : adyen.js + adyen.css;
const alby = peers.bitcoinConnect;

const rows = [
  {
    figure: 'script-tag build dist/payin-checkout.iife.js, one language, everything a shopper needs',
    // In bytes too: near the target, 20.0 kB may be either side of it.
    value: `${kB(iife)} (${iife.toLocaleString('en')} B)`,
    target: '<= 20 kB',
    compared: adyen.error ? `Adyen: ${adyen.error}` : `${adyen.name}: ${kB(adyenTotal)} JS+CSS`,
    verdict: verdict(iife <= AIM),
    command,
  },
  {
    figure: "script-tag build against Adyen's UPI-only bundle (JS+CSS)",
    value: adyenTotal ? `${ratio(iife / adyenTotal)} (Adyen ${ratio(adyenTotal / iife)} ours)` : 'n/a',
    target: '<= 0.33x (3x smaller)',
    compared: adyen.error ? adyen.error : `Adyen JS ${kB(adyen.js)} + CSS ${kB(adyen.css)}`,
    verdict: verdict(adyenTotal ? iife * 3 <= adyenTotal : undefined),
    command,
  },
];
if (languages.length === 0) {
  rows.push({
    figure: 'each further language, loaded on demand (dist/payin-checkout.<lang>.js)',
    value: 'none built yet',
    target: '<= 3 kB each',
    verdict: 'n/a',
    command,
  });
}
for (const language of languages) {
  rows.push({
    figure: `language file dist/${language.name}`,
    value: kB(language.gzip),
    target: '<= 3 kB',
    verdict: verdict(language.gzip <= LANGUAGE_AIM),
    command,
  });
}
rows.push(
  { figure: 'lit alone (LitElement, html, svg, css, nothing, decorators)', value: kB(lit.js), target: 'reported', command },
  { figure: 'qrcode core alone', value: kB(qrcode.js), target: 'reported', command },
  { figure: 'ES module entry bundled with lit and qrcode', value: kB(esm.js), target: 'reported', command },
  { figure: 'ES module entry, our own code only (lit and qrcode left out)', value: kB(own.js), target: 'reported', command },
  {
    figure: `peer: ${adyen.name}, bundled with esbuild`,
    value: adyen.error ? 'not measured' : `JS ${kB(adyen.js)} + CSS ${kB(adyen.css)} = ${kB(adyenTotal)}`,
    target: 'reported',
    compared: adyen.error ?? '',
    command: 'node bench/peers.mjs',
  },
  {
    figure: `peer: ${alby.name}, bundled with esbuild`,
    value: alby.error ? 'not measured' : kB(alby.js + alby.css),
    target: 'reported',
    compared: alby.error ?? `its UMD file as shipped: ${kB(alby.umd)}`,
    command: 'node bench/peers.mjs',
  },
);

await report({
  id: 'sizes',
  title: 'Sizes (gzip -9), ours and the peers built in the same run',
  note:
    'Ours is measured as `npm run build` wrote it (run it first). The peers are bundled here with esbuild (minified, ' +
    'ES2022) from their npm packages: Adyen Web as AdyenCheckout + UPI from its ES entry with its stylesheet, ' +
    "bitcoin-connect through init() and launchModal() (its dependency's import of Node's crypto stubbed as Vite does).",
  rows,
  raw: { iife, languages, lit, qrcode, esm, own, peers },
});
