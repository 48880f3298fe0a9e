/**
 * The languages beyond English, each loaded the first time an element speaks it, so that a page pays only for
 * its own. In the ES module build they are dynamic imports that the shop's bundler splits off (one literal
 * import() each, which every bundler can follow); the script-tag build swaps this module for
 * languages.script.ts (vite.config.ts), which loads them from beside the script. The type requires a line for
 * every tag of LANGUAGE_TAGS.
 */
import type { LanguageTag } from './language-tags.js';
import type { Translation } from './translation.js';

const LOADERS = {
  ru: () => import('./ru.js').then((m) => m.ru),
  hi: () => import('./hi.js').then((m) => m.hi),
  bn: () => import('./bn.js').then((m) => m.bn),
  te: () => import('./te.js').then((m) => m.te),
  mr: () => import('./mr.js').then((m) => m.mr),
  ta: () => import('./ta.js').then((m) => m.ta),
  gu: () => import('./gu.js').then((m) => m.gu),
  kn: () => import('./kn.js').then((m) => m.kn),
  ml: () => import('./ml.js').then((m) => m.ml),
  pa: () => import('./pa.js').then((m) => m.pa),
  or: () => import('./or.js').then((m) => m.or),
  ur: () => import('./ur.js').then((m) => m.ur),
} satisfies Record<LanguageTag, () => Promise<Translation>>;

/** By language tag: a Map, so that a tag no language has (an object's own `constructor`) finds nothing. */
export const LANGUAGES: ReadonlyMap<string, () => Promise<Translation>> = new Map(Object.entries(LOADERS));
