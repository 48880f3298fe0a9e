/**
 * A Map with a time to live per entry and a size bound, for the memory store's scratch data: re-setting a key
 * moves it to the young end. When the map is full, an expired entry goes first, and only when none has expired
 * does the entry written longest ago go: the counters share one map, and a busy shop's rate counts of a minute
 * must not push out an operator's console session of twelve hours while counts that are already dead could go.
 * Expired entries are otherwise dropped when read, so the map needs no timer. The expiry order is kept in a heap
 * (expiry-heap.ts), so a write costs O(log n), never a scan of the map.
 */
import type { Clock } from '../../shared/clock.js';
import { ExpiryHeap, type HeapEntry } from './expiry-heap.js';

interface Entry<T> extends HeapEntry {
  key: string;
  value: T;
  /** Neighbours in the order of the last writes. */
  older: Entry<T> | undefined;
  younger: Entry<T> | undefined;
}

export class ExpiringMap<T> {
  #map = new Map<string, Entry<T>>();
  #byExpiry = new ExpiryHeap<Entry<T>>();
  // The order of the last writes, kept as a list of its own: the Map's own order would do, but finding its first
  // key walks over every slot deleted since the Map last rehashed (38 µs a write at 100,000 entries, measured).
  #oldest: Entry<T> | undefined;
  #newest: Entry<T> | undefined;
  constructor(
    private readonly clock: Clock,
    private readonly maxEntries: number,
  ) {}

  get(key: string): T | undefined {
    const entry = this.#map.get(key);
    if (!entry) return undefined;
    if (entry.expiresAt <= this.clock.now()) {
      this.delete(key);
      return undefined;
    }
    return entry.value;
  }

  set(key: string, value: T, ttlMs: number): void {
    const now = this.clock.now();
    const expiresAt = now + ttlMs;
    // The key set last is at the young end already: a counter of one busy client is written in place.
    const newest = this.#newest;
    if (newest?.key === key) {
      newest.value = value;
      newest.expiresAt = expiresAt;
      this.#byExpiry.moved(newest);
      return;
    }
    this.delete(key);
    const entry: Entry<T> = { key, value, expiresAt, slot: -1, older: this.#newest, younger: undefined };
    this.#map.set(key, entry);
    this.#byExpiry.push(entry);
    if (this.#newest) this.#newest.younger = entry;
    else this.#oldest = entry;
    this.#newest = entry;
    while (this.#map.size > this.maxEntries) {
      const first = this.#byExpiry.peek()!;
      this.delete(first.expiresAt <= now ? first.key : this.#oldest!.key);
    }
  }

  delete(key: string): void {
    const entry = this.#map.get(key);
    if (!entry) return;
    this.#map.delete(key);
    this.#byExpiry.remove(entry);
    if (entry.older) entry.older.younger = entry.younger;
    else this.#oldest = entry.younger;
    if (entry.younger) entry.younger.older = entry.older;
    else this.#newest = entry.older;
  }

  /** The live values, oldest first (for the console's listing of the memory store). */
  *values(): IterableIterator<T> {
    const now = this.clock.now();
    for (let entry = this.#oldest; entry; entry = entry.younger) if (entry.expiresAt > now) yield entry.value;
  }

  get size(): number {
    return this.#map.size;
  }
}
