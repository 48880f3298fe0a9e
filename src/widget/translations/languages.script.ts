/**
 * The script-tag build's languages: `payin-checkout.<lang>.js` beside payin-checkout.iife.js (the build writes
 * them there, each an ES module whose default export is the translation), found from the script's own address,
 * so a shop adds no tag and no configuration. A strict CSP that lets the script load lets them load too: they
 * come from the same place, and import() carries the script's nonce. From another origin (a CDN) they need CORS
 * headers, as any module does; without them English is shown.
 */
import { SCRIPT_URL } from '../script-url.js';
import { LANGUAGE_TAGS } from './language-tags.js';
import type { Translation } from './translation.js';

function besideTheScript(lang: string): () => Promise<Translation> {
  // Without the script's address (not loaded by a script tag) the import fails, and English is shown.
  return async () => (await import(/* @vite-ignore */ new URL(`payin-checkout.${lang}.js`, SCRIPT_URL).href)).default;
}

/** By language tag: a Map, so that a tag no language has (an object's own `constructor`) finds nothing. */
export const LANGUAGES: ReadonlyMap<string, () => Promise<Translation>> = new Map(
  LANGUAGE_TAGS.map((lang) => [lang, besideTheScript(lang)]),
);
