/**
 * Time as a dependency of the element's controllers (countdown, status feed, payment flow, the "didn't open?"
 * hint), the browser's twin of src/server/clock.ts: tests hand the element a manual clock and move time forward
 * instead of sleeping. Browser-safe: no Node timers, nothing but the global setTimeout.
 */

export interface Clock {
  /** Epoch milliseconds. */
  now(): number;
  setTimeout(callback: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

export const systemClock: Clock = {
  now: () => Date.now(),
  setTimeout: (callback, ms) => setTimeout(callback, ms),
  clearTimeout: (handle) => clearTimeout(handle as number),
};
