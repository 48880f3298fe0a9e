/**
 * Shares one piece of work among everyone who asks for the same key at about the same time: callers that arrive
 * while it runs get its promise, and so do callers within `windowMs` after it succeeded. A hundred browsers
 * polling one payment make one status call to the service. A failure is shared by those already waiting but is
 * not kept, so the next caller tries again; a caller that must keep a failure for the window too (the service's,
 * while it is down) hands over work that resolves to it as a value (service-outcome.ts). The caller asks for
 * shared work first and, when there is none, starts the work itself and hands its promise over: the work never
 * runs from here, so reading a caller never means following a callback through this file and back.
 */
import type { Clock } from '../../shared/clock.js';

interface Flight<T> {
  promise: Promise<T>;
  /** When the work succeeded; undefined while it runs. */
  doneAt?: number;
}

export class Coalescer<T = void> {
  readonly #flights = new Map<string, Flight<T>>();

  constructor(
    private readonly clock: Clock,
    private readonly windowMs: number,
    private readonly maxKeys = 10_000,
  ) {}

  /**
   * The work for `key` in flight, or done within `windowMs`; undefined when the caller should do it (and hand it
   * to `track`). `windowMs` 0: work in flight only, for a caller that must not act on an answer from before it asked.
   */
  shared(key: string, windowMs = this.windowMs): Promise<T> | undefined {
    const existing = this.#flights.get(key);
    if (existing && (existing.doneAt === undefined || inWindow(this.clock.now() - existing.doneAt, windowMs))) return existing.promise;
    return undefined;
  }

  /** Shares `work`, which the caller has just started, with whoever asks for `key` while it runs and within the window after. */
  track(key: string, work: Promise<T>): Promise<T> {
    const flight: Flight<T> = { promise: work };
    flight.promise = work.then(
      (value) => {
        flight.doneAt = this.clock.now();
        return value;
      },
      (error: unknown) => {
        if (this.#flights.get(key) === flight) this.#flights.delete(key);
        throw error;
      },
    );
    this.#flights.delete(key);
    this.#flights.set(key, flight);
    this.#prune();
    return flight.promise;
  }

  /**
   * Drops finished entries whose window has passed, oldest first (the map is in the order of the last run of
   * each key), so that following many payments leaves nothing behind; past `maxKeys`, the oldest finished ones go
   * whatever their window. A few entries per call keep each call cheap.
   */
  #prune(): void {
    const now = this.clock.now();
    let looked = 0;
    for (const [key, flight] of this.#flights) {
      if (looked++ >= 64 && this.#flights.size <= this.maxKeys) break;
      if (flight.doneAt === undefined) continue;
      const stale = !inWindow(now - flight.doneAt, this.windowMs);
      if (stale || this.#flights.size > this.maxKeys) this.#flights.delete(key);
      else if (this.#flights.size <= this.maxKeys) break;
    }
  }
}

/**
 * Whether work done `ageMs` ago is still within its window. A negative age is a clock set back since (an NTP step,
 * an operator fixing the time): the answer is as old as nobody knows, and not fresh for as long as the clock went back.
 */
function inWindow(ageMs: number, windowMs: number): boolean {
  return ageMs >= 0 && ageMs < windowMs;
}
