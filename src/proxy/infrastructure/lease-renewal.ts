/**
 * Keeping a lease while its holder works: a lease lapses so that the work of a process that died is taken over,
 * and work that is still under way must not lose it to a second worker because it is slow (a hook that takes its
 * time, a create waiting on a slow service). The holder renews it every third of its term until it is done; a
 * renewal that finds the lease gone stops there (someone else may hold it now), and one that fails is tried again
 * at the next third, while the lease may still be alive.
 */
import type { Clock } from '../../shared/clock.js';

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
