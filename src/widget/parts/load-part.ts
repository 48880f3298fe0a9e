/**
 * Loads a part the first time any element on the page asks for it, once for all of them, as the languages are.
 * A part that fails to load (blocked, not deployed beside the script, offline) stays out, with one warning: the
 * element then draws what the core can (the QR and the requisites always), never a broken checkout. Once the
 * browser is back online the next ask loads it again (browsers now fetch a module that failed anew); nothing else
 * retries it, so a part that is not deployed is not asked for on every render.
 */
import { PARTS } from './catalog.js';
import type { PartLoaders, PartName, Parts } from './part-types.js';

/** The part, or a promise that settles once it has loaded or failed, or null when it failed. */
export type PartLoader = <K extends PartName>(name: K) => Parts[K] | Promise<unknown> | null;

/** A loader over `loaders` that keeps what each load gave for the life of the page, a failure until the browser is back online. */
export function partLoader(loaders: PartLoaders): PartLoader {
  const parts = new Map<PartName, unknown>();
  return <K extends PartName>(name: K) => {
    let part = parts.get(name);
    if (part === undefined) {
      const loading = loaders[name]()
        .then((loaded) => {
          if (typeof loaded !== 'object' || loaded === null) throw new TypeError('not a part');
          parts.set(name, loaded);
        })
        .catch((error: unknown) => {
          console.warn(`payin-checkout: the "${name}" part did not load, so the checkout goes on without it.`, error);
          parts.set(name, null);
          addEventListener('online', () => parts.delete(name), { once: true });
        });
      parts.set(name, loading);
      part = loading;
    }
    return part as Parts[K] | Promise<unknown> | null;
  };
}

export const loadPart: PartLoader = partLoader(PARTS);
