/**
 * Characters that make text read as something other than what it is: shown to a person, it says one thing while
 * its bytes say another. The bidirectional controls reorder what follows them ("\u202e1_er" reads "re_1"); the
 * invisible ones hide inside a word, so that a payee address that reads right pays another one. The zero-width
 * joiner and non-joiner are left out on purpose: Devanagari, Bengali and Persian names need them to be written
 * at all, and they reorder nothing.
 */
import { CONTROL_CHARACTER } from './order-id.js';

/** The bidirectional embeddings, overrides and isolates. */
export const BIDI_CONTROL = /[\u202a-\u202e\u2066-\u2069]/;

/** The direction marks, and the characters that show nothing: zero-width space, word joiner and the invisible operators, byte order mark, soft hyphen, Mongolian vowel separator, Hangul fillers. */
const INVISIBLE = /[\u200e\u200f\u061c\u200b\u2060-\u2064\ufeff\u00ad\u180e\u115f\u1160\u3164\uffa0]/;

/** True when `text` holds a control, bidirectional or invisible character. */
export function isMisleading(text: string): boolean {
  return CONTROL_CHARACTER.test(text) || BIDI_CONTROL.test(text) || INVISIBLE.test(text);
}
