/**
 * Keeping a lease while its holder works: a lease lapses so that the work of a process that died is taken over,
 * and work that is still under way must not lose it to a second worker because it is slow (a hook that takes its
 * time, a create waiting on a slow service). The holder renews it every third of its term until it is done; a
 * renewal that finds the lease gone stops there (someone else may hold it now), and one that fails is tried again
 * at the next third, while the lease may still be alive.
 */
import type { Clock } from '../../shared/clock.js';
import { describe } from '../http/errors.js';
import type { ProxyLogger } from '../logger.js';
import type { ProxyStore } from './store.js';

export interface LeaseRenewal {
  clock: Clock;
  leaseMs: number;
  /** Renews the lease for another term; false when the holder no longer holds it. */
  renew(): Promise<boolean>;
  /** The lease was gone when it was to be renewed. */
  lost(): void;
  /** A renewal failed (the store); the next third tries again. */
  failed(error: unknown): void;
}

/** Starts renewing; the function returned stops it, and nothing it reports afterwards is heard. */
export function keepRenewing({ clock, leaseMs, renew, lost, failed }: LeaseRenewal): () => void {
  let stopped = false;
  let timer: unknown;
  const renewLater = () => {
    timer = clock.setTimeout(() => {
      renew().then(
        (held) => {
          if (stopped) return;
          if (held) renewLater();
          else lost();
        },
        (error) => {
          if (stopped) return;
          failed(error);
          renewLater();
        },
      );
    }, leaseMs / 3);
  };
  renewLater();
  return () => {
    stopped = true;
    clock.clearTimeout(timer);
  };
}

/** What a held store lease is for, in the log: said when it lapsed under its holder, and when renewing it failed. */
export interface HeldLease {
  key: string;
  owner: string;
  leaseMs: number;
  lostWords: string;
  failedWords: string;
  fields: Record<string, unknown>;
}

/**
 * Renews a lease taken with the store's `claim` through its `extend`, until the function returned is called. A
 * store without `extend` (one a shop wrote before it existed) renews nothing: the lease lapses after its term.
 */
export function keepStoreLease(
  { clock, store, logger }: { clock: Clock; store: ProxyStore; logger: ProxyLogger },
  { key, owner, leaseMs, lostWords, failedWords, fields }: HeldLease,
): () => void {
  const { extend } = store;
  if (!extend) return () => {};
  return keepRenewing({
    clock,
    leaseMs,
    renew: () => extend.call(store, key, owner, leaseMs),
    lost: () => logger.warn(lostWords, fields),
    failed: (error) => logger.warn(failedWords, { ...fields, error: describe(error) }),
  });
}
