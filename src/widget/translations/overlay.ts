/**
 * A shop's own texts over a translation: the element's `texts` names the keys it changes, and for the keys that
 * group several texts (headings, hints, errors, address, methods) only the members it names. Translation keys are
 * therefore public names, kept as they are in every build. A text of another kind than the translation's (a string
 * for a text with a value, which JSON cannot carry as a function; a string for a group) is left out: used as it
 * is, it would throw or blank the screen that shows it.
 */
import type { Translation } from './translation.js';

/** Any key of a translation, and of a group of texts any member of it. */
export type TextOverrides = {
  [K in keyof Translation]?: Translation[K] extends (...args: never[]) => string ? Translation[K] : Partial<Translation[K]>;
};

export function overlay(t: Translation, texts: TextOverrides | undefined): Translation {
  if (!texts) return t;
  const out: Record<string, unknown> = { ...t };
  for (const [key, text] of Object.entries(texts)) {
    const base = out[key];
    if (text == null || typeof text !== typeof base) continue;
    out[key] = typeof text === 'object' ? { ...(base as object), ...text } : text;
  }
  return out as unknown as Translation;
}
