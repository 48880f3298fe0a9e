/**
 * The languages beyond English, each loaded the first time an element speaks it, so that a page pays only for
 * its own. In the ES module build they are dynamic imports that the shop's bundler splits off; the script-tag
 * build swaps this module for languages.script.ts (vite.config.ts), which loads them from beside the script.
 */
import type { Translation } from './translation.js';

export const LANGUAGES: Readonly<Record<string, () => Promise<Translation>>> = {
  ru: () => import('./ru.js').then((m) => m.ru),
  hi: () => import('./hi.js').then((m) => m.hi),
};
