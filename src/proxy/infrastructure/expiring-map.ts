/**
 * A Map with a time to live per entry and a size bound, for the memory store's scratch data: re-setting a key
 * moves it to the young end, and the oldest entry goes first when the map is full. Expired entries are dropped
 * when read, so the map needs no timer.
 */
import type { Clock } from '../../shared/clock.js';

interface Entry<T> {
  value: T;
  expiresAt: number;
}

export class ExpiringMap<T> {
  #map = new Map<string, Entry<T>>();
  #newest: string | undefined;
  constructor(
    private readonly clock: Clock,
    private readonly maxEntries: number,
  ) {}

  get(key: string): T | undefined {
    const entry = this.#map.get(key);
    if (!entry) return undefined;
    if (entry.expiresAt <= this.clock.now()) {
      this.#map.delete(key);
      return undefined;
    }
    return entry.value;
  }

  set(key: string, value: T, ttlMs: number): void {
    const expiresAt = this.clock.now() + ttlMs;
    // The key set last is at the young end already: a counter of one busy client is written in place.
    const newest = key === this.#newest ? this.#map.get(key) : undefined;
    if (newest) {
      newest.value = value;
      newest.expiresAt = expiresAt;
      return;
    }
    this.#map.delete(key);
    this.#map.set(key, { value, expiresAt });
    this.#newest = key;
    while (this.#map.size > this.maxEntries) this.#map.delete(this.#map.keys().next().value!);
  }

  delete(key: string): void {
    this.#map.delete(key);
  }

  get size(): number {
    return this.#map.size;
  }
}
