// The script-tag build's size budgets (gzip -9, in bytes), in one place for the budget test
// (test/e2e/bundle-size.test.ts) and `npm run bench` (bench/sizes.mjs). A budget is a guard with room, not the
// design: what the first screen of a payment does not draw belongs in a part, loaded when it is needed
// (CONTRIBUTING.md says how to choose).
import { readdirSync, readFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';

export const BUDGETS = {
  /**
   * dist/payin-checkout.iife.js: what the first screens of a payment need. The aim is 15 kB (CORE_AIM); the core
   * measures 16.5 kB now that the proxy sends the QR's matrix (the encoder left the core) and the parts' English
   * travels with them, and since the first screens follow a page's language switch, announce their connection
   * notices and errors, and keep their text layout in a shop's container (about 150 B), and since an order the
   * proxy refuses (an order token or a session that expired) says so instead of "the service is not answering"
   * (60 B: a sentence of its own), and since a final screen after money was received (underpaid, or a re-priced
   * order's payment paid anyway) offers no new payment even when the results part is missing (45 B), and since its
   * text stays at least 16px on a page whose root font size is small (Bootstrap 3's 10px), and since it finds its
   * parts and languages when a page loads it as a module script (16 B, script-url.ts), and since a final state
   * learned while the element is off the page (a route change while its answer was on its way) is announced once
   * it is back on one, not to nobody (27 B, payment-flow.ts), and since a move in the DOM keeps the element's
   * event stream and lead instead of reopening both with a status check (58 B, payin-checkout-element.ts), and
   * since the amount stays one number on a phone whose text is at 200% instead of breaking after "₹499.0" (30 B,
   * payin-checkout.styles.ts), and since a create or resume that failed for want of a connection is repeated once
   * the browser is back online, instead of "No connection" staying on a phone whose connection is back (22 B,
   * payment-flow.ts through the status feed's online listener), and since a checkout in a frame of another site
   * that the browser refuses Web Locks follows its payment alone (3 B, tab-coordination.ts), and since an amount
   * written with its currency's code ("RUB 450.00") breaks after the code, not inside the number, on a phone whose
   * text is at 200% (22 B, views/parts.ts), and since an element moved in two steps, with its create's answer taken
   * in between, follows the payment it learned off the page instead of never following it (12 B,
   * payin-checkout-element.ts), and since a copy button that the browser refuses both ways of copying (some in-app
   * browsers) selects the value for the shopper to copy by hand instead of doing nothing (47 B,
   * payin-checkout-element.ts). The guard stands just above that: nothing may grow the core unnoticed, and a fix is
   * never written smaller to fit under it.
   */
  core: 16_980,
  /**
   * The core and every part one payment can load (JOURNEYS), for each kind of payment. The fallback parts
   * (FALLBACKS) are not among them: this proxy sends every answer with a QR its matrix, or `null` for a text no QR
   * holds (for which the element does not fetch the encoder either), so a payment loads them only from a server that
   * sends no matrix. `npm run bench` still reports each journey with them.
   */
  corePlusParts: 24_000,
  /** Each dist/payin-checkout.<part>.part.js, the fallbacks among them. */
  part: 3_000,
  /** Each dist/payin-checkout.<lang>.js. */
  language: 3_000,
};

/** Where the core should get to (`npm run bench` reports it against this); the guard above is what it must not pass. */
export const CORE_AIM = 15_000;

/**
 * The parts one payment can load, by the longest way it can go: on a phone, the layout (with the QR image to save
 * or share) and the chooser of its method, then a final screen. A desktop loads only the results part.
 */
export const JOURNEYS = {
  'UPI on a phone': ['phone', 'upi-apps', 'results'],
  'SBP on a phone': ['phone', 'sbp-banks', 'results'],
  'a desktop': ['results'],
};

/**
 * Parts that no journey loads: fetched only when something the core relies on is missing, on top of any
 * journey's parts. The qr-encoder draws the QR when an answer came without its module matrix (a server that does
 * not send it, or a garbled one); never for this proxy's answers, which carry the matrix or say none exists.
 */
export const FALLBACKS = ['qr-encoder'];

const gzip = (bytes) => gzipSync(bytes, { level: 9 }).byteLength;

/** The gzip sizes of the script-tag build's files in `dist` (a file: URL ending in a slash): the core, its parts, its languages. */
export function measureScript(dist) {
  const names = readdirSync(dist);
  const sizeOf = (name) => gzip(readFileSync(new URL(name, dist)));
  const pick = (pattern) =>
    names
      .map((name) => pattern.exec(name))
      .filter(Boolean)
      .map(([file, name]) => ({ name, file, gzip: sizeOf(file) }));
  return {
    core: sizeOf('payin-checkout.iife.js'),
    parts: pick(/^payin-checkout\.([\w-]+)\.part\.js$/),
    languages: pick(/^payin-checkout\.([a-z]{2,3}(?:-[\w]+)?)\.js$/),
  };
}

/**
 * The core and the parts of each journey, gzip bytes summed (a part that is not built counts as missing, not as
 * 0); with `fallbacks` (FALLBACKS), each journey as it goes when those load too.
 */
export function journeyTotals(sizes, journeys = JOURNEYS, fallbacks = []) {
  const withFallbacks = fallbacks.length > 0;
  return Object.entries(journeys).map(([journey, names]) => {
    const all = [...names, ...fallbacks];
    const parts = all.map((name) => sizes.parts.find((part) => part.name === name));
    if (parts.includes(undefined)) throw new Error(`${journey}: the parts ${all.join(', ')} are not all built`);
    return {
      journey: withFallbacks ? `${journey} with the fallbacks` : journey,
      total: sizes.core + parts.reduce((sum, part) => sum + part.gzip, 0),
    };
  });
}

/** Each budget that `sizes` (as measureScript answers) passes, as a sentence; none when all hold. */
export function overBudget(sizes, budgets = BUDGETS, journeys = JOURNEYS) {
  const over = [];
  if (sizes.core > budgets.core) over.push(`the core is ${sizes.core} B, over its ${budgets.core} B`);
  for (const { journey, total } of journeyTotals(sizes, journeys)) {
    if (total > budgets.corePlusParts) {
      over.push(`the core and the parts of ${journey} are ${total} B, over their ${budgets.corePlusParts} B`);
    }
  }
  for (const part of sizes.parts) {
    if (part.gzip > budgets.part) over.push(`the ${part.name} part is ${part.gzip} B, over its ${budgets.part} B`);
  }
  for (const language of sizes.languages) {
    if (language.gzip > budgets.language) over.push(`the ${language.name} language is ${language.gzip} B, over its ${budgets.language} B`);
  }
  return over;
}
