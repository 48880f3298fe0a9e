/**
 * Time as a dependency. The sandbox (expiry, requisites delay, callback retries), the proxy (caches, rate
 * windows, retry backoff) and the element's controllers (countdown, status checks, the "didn't open?" hint) take
 * a Clock, so that tests move time forward instead of sleeping. Runs anywhere: Node, workers, browsers.
 */

export interface Clock {
  /** Epoch milliseconds. */
  now(): number;
  setTimeout(callback: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

export const systemClock: Clock = {
  now: () => Date.now(),
  setTimeout: (callback, ms) => {
    const handle = setTimeout(callback, ms);
    // Timers must never keep a process alive on their own (a CLI, a test run).
    (handle as { unref?: () => void }).unref?.();
    return handle;
  },
  clearTimeout: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
};

/** Resolves after `ms` on the given clock; rejects with the signal's reason when aborted first. */
export function sleep(clock: Clock, ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const onAbort = () => {
      clock.clearTimeout(handle);
      reject(signal!.reason);
    };
    const handle = clock.setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

/**
 * Whether `work` resolves within `ms` on the given clock: true when it does, false when the time runs out first (the
 * work goes on; nobody waits for it), rejected as the work is. The timer is cleared either way.
 */
export async function within(clock: Clock, work: Promise<unknown>, ms: number): Promise<boolean> {
  let handle: unknown;
  const late = new Promise<boolean>((resolve) => {
    handle = clock.setTimeout(() => resolve(false), ms);
  });
  try {
    return await Promise.race([work.then(() => true), late]);
  } finally {
    clock.clearTimeout(handle);
  }
}
