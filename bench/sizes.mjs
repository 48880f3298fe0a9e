// Figure 1, sizes (gzip level 9) of real builds, ours and the peers' in the same run: the script-tag build as
// `npm run build` wrote it (its core dist/payin-checkout.iife.js, the parts and the language files beside it, and
// the core with the parts of each kind of payment, against the budgets of bench/support/budgets.mjs), lit alone,
// lean-qr's nano encoder alone (the qr-encoder part's), and our ES module entry bundled with and without its dependencies, to show where the
// bytes are. Peers come from bench/peers.mjs.
import { measurePeers } from './peers.mjs';
import { BUDGETS, CORE_AIM, FALLBACKS, JOURNEYS, journeyTotals, measureScript } from './support/budgets.mjs';
import { bundleSnippet } from './support/bundle.mjs';
import { kB, ratio, verdict } from './support/format.mjs';
import { commandOf, report } from './support/section.mjs';
import { at } from './support/stack.mjs';

const command = commandOf('sizes.mjs');

const script = measureScript(at('dist/'));
const iife = script.core;
const { parts, languages } = script;
const journeys = journeyTotals(script);
const withFallbacks = journeyTotals(script, JOURNEYS, FALLBACKS);
const lit = await bundleSnippet(
  "export { LitElement, html, svg, css, nothing } from 'lit'; export { property, state } from 'lit/decorators.js';",
);
const leanQr = await bundleSnippet("export { correction, generate } from 'lean-qr/nano';");
const esm = await bundleSnippet("export * from './dist/widget/index.js';", { format: 'esm' });
const own = await bundleSnippet("export * from './dist/widget/index.js';", {
  format: 'esm',
  external: ['lit', 'lit/*', 'lean-qr', 'lean-qr/*'],
});
const peers = await measurePeers();
const adyen = peers.adyen;
const adyenTotal = adyen.error ? undefined : adyen.js + adyen.css;
const alby = peers.bitcoinConnect;

const rows = [
  {
    figure: 'script-tag build, its core dist/payin-checkout.iife.js (the first screens of a payment, English)',
    // In bytes too: near a budget, a kB figure may be either side of it.
    value: `${kB(iife)} (${iife.toLocaleString('en')} B)`,
    target: `<= ${kB(CORE_AIM)} (aim); guard ${kB(BUDGETS.core)}`,
    compared: adyen.error ? `Adyen: ${adyen.error}` : `${adyen.name}: ${kB(adyenTotal)} JS+CSS`,
    verdict: verdict(iife <= CORE_AIM),
    command,
  },
  ...journeys.map(({ journey, total }) => ({
    figure: `the core and every part a payment ${journey === 'a desktop' ? 'on a desktop' : `by ${journey}`} can load`,
    value: `${kB(total)} (${total.toLocaleString('en')} B)`,
    target: `<= ${kB(BUDGETS.corePlusParts)}`,
    verdict: verdict(total <= BUDGETS.corePlusParts),
    command,
  })),
  ...withFallbacks.map(({ journey, total }) => ({
    figure: `the same ${journey.replace(/ with the fallbacks$/, '').replace(/^a desktop$/, 'on a desktop')}, with the fallback parts too (${FALLBACKS.join(', ')}), from a server that sends no QR matrix`,
    value: `${kB(total)} (${total.toLocaleString('en')} B)`,
    target: 'for scale: this proxy never makes a payment load a fallback',
    command,
  })),
  ...parts.map((part) => ({
    figure: `part dist/${part.file}${FALLBACKS.includes(part.name) ? ' (a fallback: only for an answer without the QR matrix)' : ''}`,
    value: kB(part.gzip),
    target: `<= ${kB(BUDGETS.part)}`,
    verdict: verdict(part.gzip <= BUDGETS.part),
    command,
  })),
  ...languages.map((language) => ({
    figure: `language file dist/${language.file}`,
    value: kB(language.gzip),
    target: `<= ${kB(BUDGETS.language)}`,
    verdict: verdict(language.gzip <= BUDGETS.language),
    command,
  })),
  {
    figure: "script-tag core against Adyen's UPI-only bundle (JS+CSS)",
    value: adyenTotal ? `${ratio(iife / adyenTotal)} (Adyen ${ratio(adyenTotal / iife)} ours)` : 'n/a',
    target: '<= 0.33x (3x smaller)',
    compared: adyen.error ? adyen.error : `Adyen JS ${kB(adyen.js)} + CSS ${kB(adyen.css)}`,
    verdict: verdict(adyenTotal ? iife * 3 <= adyenTotal : undefined),
    command,
  },
];
rows.push(
  { figure: 'lit alone (LitElement, html, svg, css, nothing, decorators)', value: kB(lit.js), target: 'reported', command },
  { figure: "lean-qr/nano alone (the qr-encoder part's encoder)", value: kB(leanQr.js), target: 'reported', command },
  { figure: 'ES module entry bundled with lit and lean-qr', value: kB(esm.js), target: 'reported', command },
  { figure: 'ES module entry, our own code only (lit and lean-qr left out)', value: kB(own.js), target: 'reported', command },
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
    'Ours is measured as `npm run build` wrote it (run it first); a kind of payment counts the parts it can load at ' +
    'most (on a phone: the layout, its chooser, the QR image, the final screens), and again with the fallback parts, which only a server that sends no QR matrix makes it load. The peers are bundled here with esbuild (minified, ' +
    'ES2022) from their npm packages: Adyen Web as AdyenCheckout + UPI from its ES entry with its stylesheet, ' +
    "bitcoin-connect through init() and launchModal() (its dependency's import of Node's crypto stubbed as Vite does).",
  rows,
  raw: { iife, parts, languages, journeys, withFallbacks, lit, leanQr, esm, own, peers },
});
