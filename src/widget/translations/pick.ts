/**
 * Which translation an element speaks: its own `lang`, else the closest ancestor's (through shadow roots, so a
 * widget inside another component still follows the page, up to <html>), else English. Only the primary
 * language subtag chooses the strings; the full tag still drives Intl, so `en-IN` groups amounts the Indian way.
 * English is built in; the others load on first use (languages.ts), once per page for every element.
 */
import { en } from './en.js';
import { LANGUAGES } from './languages.js';
import type { Translation } from './translation.js';

const loaded = new Map<string, Translation | Promise<Translation>>([['en', en]]);

/** The nearest non-empty `lang`, walking out of shadow roots up to <html> (a detached element has none: English). */
export function langOf(element: Element): string {
  let node: Element | null = element;
  while (node) {
    const lang = node.closest('[lang]:not([lang=""])')?.getAttribute('lang')?.trim();
    if (lang) return lang;
    const root = node.getRootNode();
    node = root instanceof ShadowRoot ? root.host : null;
  }
  return '';
}

export interface Localized {
  t: Translation;
  /** The tag for Intl: the element's own when its language is supported, else the translation's. */
  locale: string;
}

/**
 * The translation for `lang`, or, while it loads, a promise that settles once it can be picked. A language that
 * fails to load (offline, not deployed beside the script) falls back to English, with one warning, until the
 * browser is back online: the next render then loads it again.
 */
export function pickTranslation(lang: string): Localized | Promise<unknown> {
  const primary = lang.toLowerCase().split(/[-_]/)[0] ?? '';
  let t = loaded.get(primary);
  const load = LANGUAGES.get(primary);
  if (!t && load) {
    t = load()
      .then((translation) => {
        if (typeof translation?.locale !== 'string') throw new TypeError('not a translation');
        return translation;
      })
      .catch((error: unknown) => {
        console.warn(`payin-checkout: the "${primary}" texts did not load, so English is shown.`, error);
        // As a failed part is (load-part.ts): not asked for on every render, but again once back online.
        addEventListener('online', () => loaded.delete(primary), { once: true });
        return en;
      });
    t.then((translation) => loaded.set(primary, translation));
    loaded.set(primary, t);
  }
  // Not `instanceof Promise`: a page may have replaced Promise (a polyfill, Bluebird), and this one is the browser's own.
  if (t && 'then' in t) return t;
  // An unknown language, or one that fell back: English words with English numbers.
  if (!t || (t === en && primary !== 'en')) return { t: en, locale: 'en' };
  try {
    return { t, locale: Intl.getCanonicalLocales(lang)[0] ?? t.locale };
  } catch {
    return { t, locale: t.locale };
  }
}
