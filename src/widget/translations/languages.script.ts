/**
 * The script-tag build's languages: `payin-checkout.<lang>.js` beside payin-checkout.iife.js (the build writes
 * them there, each an ES module whose default export is the translation), found from the script's own address,
 * so a shop adds no tag and no configuration. A strict CSP that lets the script load lets them load too: they
 * come from the same place, and import() carries the script's nonce.
 */
import type { Translation } from './translation.js';

// Read while the script runs: currentScript is gone once it has.
const scriptUrl = typeof document === 'undefined' ? undefined : (document.currentScript as HTMLScriptElement | null)?.src;

function besideTheScript(lang: string): () => Promise<Translation> {
  return async () => {
    if (!scriptUrl) throw new Error(`payin-checkout: cannot tell where the script was loaded from to load "${lang}"`);
    const url = new URL(`payin-checkout.${lang}.js`, scriptUrl).href;
    const module: { default?: Translation } = await import(/* @vite-ignore */ url);
    if (typeof module.default?.locale !== 'string') throw new Error(`payin-checkout: ${url} is not a translation`);
    return module.default;
  };
}

export const LANGUAGES: Readonly<Record<string, () => Promise<Translation>>> = {
  ru: besideTheScript('ru'),
  hi: besideTheScript('hi'),
};
