/**
 * Every language is whole and reads as that language: each file has every text of the English one (every
 * heading, hint, error and group member, every sentence with a value), in its own script, and its sentences with
 * a number choose their words by Intl.PluralRules, never by a rule of their own.
 */
import { expect } from '@open-wc/testing';
import { en } from '../../src/widget/translations/en.js';
import { LANGUAGE_TAGS } from '../../src/widget/translations/language-tags.js';
import { LANGUAGES } from '../../src/widget/translations/languages.js';
import type { Translation } from '../../src/widget/translations/translation.js';
import { drawScreen, SCREEN_CASES, screenHost } from './support/every-screen.js';

/** A letter of each language's own script: a text copied from English would have none. */
const SCRIPT: Record<string, RegExp> = {
  ru: /\p{Script=Cyrillic}/u,
  hi: /\p{Script=Devanagari}/u,
  mr: /\p{Script=Devanagari}/u,
  bn: /\p{Script=Bengali}/u,
  te: /\p{Script=Telugu}/u,
  ta: /\p{Script=Tamil}/u,
  gu: /\p{Script=Gujarati}/u,
  kn: /\p{Script=Kannada}/u,
  ml: /\p{Script=Malayalam}/u,
  pa: /\p{Script=Gurmukhi}/u,
  or: /\p{Script=Oriya}/u,
  ur: /\p{Script=Arabic}/u,
};

/** Texts that every language writes as English does: the name UPI apps show for the address. */
const SAME_EVERYWHERE = new Set(['UPI ID']);

/** Every text of a translation by its path (`headings.paid`), each sentence with a value called with sample values. */
function texts(t: Translation): Map<string, string> {
  const out = new Map<string, string>();
  const visit = (value: unknown, path: string) => {
    if (typeof value === 'string') out.set(path, value);
    else if (typeof value === 'function') out.set(path, value('‹A›', '‹B›'));
    else if (value && typeof value === 'object') for (const [key, v] of Object.entries(value)) visit(v, path ? `${path}.${key}` : key);
  };
  visit(t, '');
  for (const key of ['locale', 'dir', 'amountLocale']) out.delete(key);
  return out;
}

const english = texts(en);

describe('the translations', () => {
  it('are one for each tag of the language list, under its own locale', async () => {
    expect([...LANGUAGES.keys()].sort()).to.deep.equal([...LANGUAGE_TAGS].sort());
    for (const lang of LANGUAGE_TAGS) expect((await LANGUAGES.get(lang)!()).locale).to.equal(lang);
  });

  for (const lang of LANGUAGE_TAGS) {
    describe(lang, () => {
      let t: Translation;
      before(async () => {
        t = await LANGUAGES.get(lang)!();
      });

      it('has every text of the English one, and no other', () => {
        const own = texts(t);
        expect([...own.keys()].filter((path) => path !== 'methods.sbp' && path !== 'methods.upi').sort()).to.deep.equal(
          [...english.keys()].sort(),
        );
        for (const [path, text] of own) expect(text.trim(), `${lang} ${path}`).not.to.equal('');
      });

      it('writes every text in its own script, and every value it is given', () => {
        for (const [path, text] of texts(t)) {
          if (SAME_EVERYWHERE.has(text) || path.startsWith('methods.')) continue;
          expect(text, `${lang} ${path}`).to.match(SCRIPT[lang]!);
          expect(text, `${lang} ${path}: still English`).not.to.equal(english.get(path));
          if (english.get(path)?.includes('‹A›')) expect(text, `${lang} ${path}`).to.contain('‹A›');
          if (english.get(path)?.includes('‹B›')) expect(text, `${lang} ${path}`).to.contain('‹B›');
        }
        expect(t.sbpInstruction(undefined)).not.to.contain('undefined');
      });

      it('names a copy button in its word order: the verb last but in Russian, which says it first as English does', () => {
        const { host, root } = screenHost();
        drawScreen(root, t, lang, SCREEN_CASES.find((c) => c.name === 'pay, desktop, QR')!);
        const button = root.querySelector('#copy-amount')!;
        const name = button
          .getAttribute('aria-labelledby')!
          .split(' ')
          .map((id) => root.getElementById(id)!.textContent!.trim());
        host.remove();
        expect(name, lang).to.deep.equal(lang === 'ru' ? [t.copy, t.amountLabel] : [t.amountLabel, t.copy]);
      });

      it('says each number of the countdown in the form Intl.PluralRules picks for it', () => {
        const rules = new Intl.PluralRules(t.locale);
        for (const say of [t.minutesLeft, t.secondsLeft]) {
          const byCategory = new Map<string, string>();
          for (let n = 1; n <= 120; n++) {
            const text = say(n);
            expect(text).to.contain(String(n));
            // One wording per plural category: a hand-made rule that splits a category (or ignores it) shows here.
            const wording = text.replace(String(n), '#');
            const category = rules.select(n);
            expect(byCategory.get(category) ?? wording, `${lang} ${n} (${category})`).to.equal(wording);
            byCategory.set(category, wording);
          }
        }
      });
    });
  }

  it('writes rupees with Latin digits and Indian grouping in every Indian language', async () => {
    for (const lang of LANGUAGE_TAGS.filter((l) => l !== 'ru')) {
      const t = await LANGUAGES.get(lang)!();
      const amount = (1234567.5).toLocaleString(t.amountLocale ?? t.locale, { style: 'currency', currency: 'INR' });
      expect(amount, lang).to.equal('₹12,34,567.50');
    }
  });
});

describe('amounts on the screen', () => {
  /** The amount the pay screen shows, for a payment of 12,34,567.50 in `currency`, on a page in `lang`. */
  function shown(lang: string, currency: string): string {
    const { host, root } = screenHost();
    const pay = SCREEN_CASES.find((c) => c.name === 'pay, desktop, QR')!;
    const payment = { ...pay.state.payment!, currency };
    drawScreen(root, en, lang, { ...pay, state: { ...pay.state, payment } });
    const amount = root.querySelector('[part="amount"] .value')!.textContent!;
    host.remove();
    return amount;
  }

  it('writes rupees as UPI apps do on an English page too, whichever English it names', () => {
    // An Indian shop's page says en or en-US as often as en-IN; the shopper's UPI app says ₹12,34,567.50.
    for (const lang of ['en', 'en-US', 'en-GB', 'en-IN']) expect(shown(lang, 'INR'), lang).to.equal('₹12,34,567.50');
    expect(shown('en', 'RUB').replace(/\s/g, ' '), 'roubles as English writes them').to.equal('RUB 1,234,567.50');
  });
});

describe('English in the script-tag build', () => {
  it('is the core texts and each part its own, every key exactly once: the core plus all parts is the whole of English', async () => {
    const { enCore } = await import('../../src/widget/translations/en-core.js');
    const parts: object[] = [
      (await import('../../src/widget/parts/phone.js')).en,
      (await import('../../src/widget/parts/upi-apps.js')).en,
      (await import('../../src/widget/parts/sbp-banks.js')).en,
      (await import('../../src/widget/parts/results.js')).en,
    ];
    const groups = [enCore, ...parts].map((group) => Object.keys(group));
    const keys = groups.flat();
    expect(new Set(keys).size, 'a key in two groups').to.equal(keys.length);
    expect([...keys].sort()).to.deep.equal(Object.keys(en).sort());
    for (const group of parts) expect(Object.keys(group).length).to.be.greaterThan(0);
  });
});
