/**
 * What the stores that serve one process (memory, SQLite) keep in that process whatever else they persist: rate
 * counters with expiry (scratch, so losing them on a restart costs nothing) and the pub/sub of the event streams
 * (a stream lives in the process that serves it). Both stores extend this, so the two share one implementation.
 */
import type { Clock } from '../../shared/clock.js';
import { ExpiringMap } from './expiring-map.js';
import { LocalPubSub } from './local-pub-sub.js';

export abstract class OneProcessStore {
  readonly #counters: ExpiringMap<number>;
  readonly #pubSub = new LocalPubSub();

  protected constructor(clock: Clock, maxCounters: number) {
    this.#counters = new ExpiringMap(clock, maxCounters);
  }

  async count(key: string, delta: number, ttlMs: number): Promise<number> {
    return this.countNow(key, delta, ttlMs);
  }

  countNow(key: string, delta: number, ttlMs: number): number {
    const value = (this.#counters.get(key) ?? 0) + delta;
    this.#counters.set(key, value, ttlMs);
    return value;
  }

  async publish(channel: string, message: string): Promise<void> {
    this.#pubSub.publish(channel, message);
  }

  async subscribe(channel: string, listener: (message: string) => void): Promise<() => Promise<void>> {
    return this.#pubSub.subscribe(channel, listener);
  }

  /** Open subscriptions, for tests that check that streams let go of theirs. */
  get subscriptionCount(): number {
    return this.#pubSub.size;
  }
}
