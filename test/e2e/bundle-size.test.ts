/**
 * The script-tag build is what a shop's shoppers download before they can pay, so its size is a feature, guarded
 * by budgets with room (bench/support/budgets.mjs): the core, the core with every part one payment can load, and
 * each part and language file on its own. It reads the files the build just wrote; run `npm run build` first
 * (the test command does).
 */
import { existsSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { BUDGETS, FALLBACKS, JOURNEYS, journeyTotals, measureScript, overBudget } from '../../bench/support/budgets.mjs';
import { LANGUAGE_TAGS } from '../../src/widget/translations/language-tags.js';

const DIST = new URL('../../dist/', import.meta.url);
const BUNDLE = new URL('payin-checkout.iife.js', DIST);
const PARTS = ['phone', 'qr-encoder', 'results', 'sbp-banks', 'upi-apps'];

function bundle(): string {
  if (!existsSync(BUNDLE)) throw new Error('dist/payin-checkout.iife.js is missing: run `npm run build` first.');
  return readFileSync(BUNDLE, 'utf8');
}

describe('the script-tag build', () => {
  it('stays within every budget: the core, the core with the parts of each payment, each part and each language', () => {
    bundle();
    const sizes = measureScript(DIST);
    console.log(
      [
        `core ${sizes.core} B (budget ${BUDGETS.core} B)`,
        ...journeyTotals(sizes).map(({ journey, total }) => `core + parts of ${journey}: ${total} B (budget ${BUDGETS.corePlusParts} B)`),
        ...journeyTotals(sizes, JOURNEYS, FALLBACKS).map(
          ({ journey, total }) => `core + parts of ${journey}: ${total} B (no budget: not with this proxy)`,
        ),
        ...[...sizes.parts, ...sizes.languages].map((file) => `${file.file} ${file.gzip} B`),
      ].join('\n'),
    );
    expect(sizes.parts.map((part) => part.name).sort()).toEqual(PARTS);
    expect(sizes.languages.map((language) => language.name).sort()).toEqual([...LANGUAGE_TAGS].sort());
    expect(overBudget(sizes)).toEqual([]);
  });

  it('names each budget a build passes, even by one byte', () => {
    const journeys = { 'a phone': ['phone'] };
    const encoder = { name: 'qr-encoder', file: 'payin-checkout.qr-encoder.part.js', gzip: BUDGETS.part };
    const within = {
      core: BUDGETS.core,
      parts: [{ name: 'phone', file: 'payin-checkout.phone.part.js', gzip: BUDGETS.part }, encoder],
      languages: [{ name: 'ru', file: 'payin-checkout.ru.js', gzip: BUDGETS.language }],
    };
    const room = { ...BUDGETS, corePlusParts: BUDGETS.core + BUDGETS.part };
    const over = (sizes: typeof within, budgets = room) => overBudget(sizes, budgets, journeys);
    expect(over(within)).toEqual([]);
    expect(over({ ...within, core: BUDGETS.core + 1 }, { ...room, corePlusParts: room.corePlusParts + 1 })).toEqual([
      expect.stringMatching(/^the core is/),
    ]);
    expect(over(within, { ...room, corePlusParts: room.corePlusParts - 1 })).toEqual([
      expect.stringMatching(/^the core and the parts of a phone are/),
    ]);
    const noRoom = { ...room, corePlusParts: 1e9 };
    expect(over({ ...within, parts: [{ ...within.parts[0]!, gzip: BUDGETS.part + 1 }, encoder] }, noRoom)).toEqual([
      expect.stringMatching(/^the phone part/),
    ]);
    // A fallback part, outside every journey, has the budget of every part.
    expect(over({ ...within, parts: [within.parts[0]!, { ...encoder, gzip: BUDGETS.part + 1 }] }, noRoom)).toEqual([
      expect.stringMatching(/^the qr-encoder part is \d+ B, over its 3000 B/),
    ]);
    expect(over({ ...within, languages: [{ ...within.languages[0]!, gzip: BUDGETS.language + 1 }] })).toEqual([
      expect.stringMatching(/^the ru language/),
    ]);
  });

  it('counts, for each kind of payment, every part it can load, and the fallbacks beside them', () => {
    const sizes = measureScript(DIST);
    const all = new Set(Object.values(JOURNEYS).flat());
    expect([...all, ...FALLBACKS].sort()).toEqual(PARTS);
    expect(FALLBACKS.filter((part) => all.has(part))).toEqual([]);
    for (const { total } of journeyTotals(sizes)) expect(total).toBeGreaterThan(sizes.core);
  });

  it('loads every further language from beside it, an ES module of a whole translation, not in the core', async () => {
    const { en } = await import('../../src/widget/translations/en.js');
    expect(LANGUAGE_TAGS.length).toBeGreaterThanOrEqual(12);
    for (const lang of LANGUAGE_TAGS) {
      const { default: t } = await import(new URL(`payin-checkout.${lang}.js`, DIST).href);
      expect(t.locale).toBe(lang);
      // Every key of English under its own name (a shop's `texts` name them), and nothing unknown.
      expect(Object.keys(t)).toEqual(expect.arrayContaining(Object.keys(en)));
      for (const key of Object.keys(t)) expect(['dir', 'amountLocale', 'copyLast', ...Object.keys(en)]).toContain(key);
    }
    expect(bundle()).not.toContain('Оплатить');
    expect(bundle()).not.toContain('ادائیگی');
  });

  it('keeps each part out of the core: a part file of its own, an ES module that takes the kit', () => {
    for (const part of PARTS) {
      const code = readFileSync(new URL(`payin-checkout.${part}.part.js`, DIST), 'utf8');
      expect(code).toMatch(/export\s*\{[^}]*\bas default\b/);
      // Never a second Lit: the part draws with the core's.
      expect(code).not.toContain('lit-html');
    }
    // The bank chooser's search and the results' paid amount are the parts' own, not the core's.
    expect(bundle()).not.toContain('bank-search');
    expect(bundle()).not.toContain('paid-amount');
    // The QR encoder neither: the core draws the matrix the proxy sends (lean-qr's error text is the encoder's).
    expect(bundle()).not.toContain('lean-qr error');
    expect(readFileSync(new URL('payin-checkout.qr-encoder.part.js', DIST), 'utf8')).toContain('lean-qr error');
  });

  it('is one self-contained classic script with nothing left to resolve', () => {
    const code = bundle();
    expect(code).not.toMatch(/^\s*import[\s{*]/m);
    expect(code).not.toMatch(/^\s*export[\s{*]/m);
    expect(code).not.toMatch(/\brequire\(\s*["']/);
    expect(code).not.toMatch(/["']node:/);
    expect(code).toContain('payin-checkout');
  });

  it('carries no source map reference and nothing secret', () => {
    for (const name of ['payin-checkout.iife.js', ...PARTS.map((part) => `payin-checkout.${part}.part.js`)]) {
      const code = readFileSync(new URL(name, DIST), 'utf8');
      expect(code).not.toContain('sourceMappingURL');
      for (const secret of ['demo-secret', 'PAYIN_SECRET', 'PAYIN_TOKEN', 'Signature']) expect(code).not.toContain(secret);
    }
  });
});
