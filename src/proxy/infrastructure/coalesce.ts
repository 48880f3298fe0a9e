/**
 * Shares one piece of work among everyone who asks for the same key at about the same time: callers that arrive
 * while it runs get its promise, and so do callers within `windowMs` after it succeeded. A hundred browsers
 * polling one payment make one status call to the service. A failure is shared by those already waiting but is
 * not kept, so the next caller tries again.
 */
import type { Clock } from '../../shared/clock.js';

interface Flight {
  promise: Promise<void>;
  /** When the work succeeded; undefined while it runs. */
  doneAt?: number;
}

export class Coalescer {
  readonly #flights = new Map<string, Flight>();

  constructor(
    private readonly clock: Clock,
    private readonly windowMs: number,
    private readonly maxKeys = 10_000,
  ) {}

  /** `windowMs` 0: share only work in flight, for a caller that must not act on an answer from before it asked. */
  run(key: string, work: () => Promise<void>, windowMs = this.windowMs): Promise<void> {
    const existing = this.#flights.get(key);
    if (existing && (existing.doneAt === undefined || this.clock.now() - existing.doneAt < windowMs)) {
      return existing.promise;
    }
    const flight: Flight = { promise: Promise.resolve() };
    flight.promise = (async () => {
      try {
        await work();
        flight.doneAt = this.clock.now();
      } catch (error) {
        if (this.#flights.get(key) === flight) this.#flights.delete(key);
        throw error;
      }
    })();
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
      const stale = now - flight.doneAt >= this.windowMs;
      if (stale || this.#flights.size > this.maxKeys) this.#flights.delete(key);
      else if (this.#flights.size <= this.maxKeys) break;
    }
  }
}
