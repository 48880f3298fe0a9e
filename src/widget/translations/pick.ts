/**
 * Which translation an element speaks: its own `lang`, else the closest ancestor's (through shadow roots, so a
 * widget inside another component still follows the page), else the document's, else English. Only the primary
 * language subtag chooses the strings; the full tag still drives Intl, so `en-IN` groups amounts the Indian way.
 */
import { en } from './en.js';
import { hi } from './hi.js';
import { ru } from './ru.js';
import type { Translation } from './translation.js';

const TRANSLATIONS: Record<string, Translation> = { en, ru, hi };

/** The nearest non-empty `lang`, walking out of shadow roots. */
export function langOf(element: Element): string {
  let node: Element | null = element;
  while (node) {
    const lang = node.closest('[lang]:not([lang=""])')?.getAttribute('lang')?.trim();
    if (lang) return lang;
    const root = node.getRootNode();
    node = root instanceof ShadowRoot ? root.host : null;
  }
  return document.documentElement.lang || '';
}

export interface Localized {
  t: Translation;
  /** The tag for Intl: the element's own when its language is supported, else the translation's. */
  locale: string;
}

export function pickTranslation(lang: string): Localized {
  const primary = lang.toLowerCase().split(/[-_]/)[0] ?? '';
  const t = TRANSLATIONS[primary];
  if (!t) return { t: en, locale: 'en' };
  try {
    return { t, locale: Intl.getCanonicalLocales(lang)[0] ?? t.locale };
  } catch {
    return { t, locale: t.locale };
  }
}
