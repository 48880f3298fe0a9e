/**
 * The entries of an ExpiringMap ordered by when they expire, so that a full map finds an expired entry to drop in
 * O(log n) instead of scanning every entry on every write. The map's own order is the order of the last writes, and
 * with times to live that differ (a rate counter's minute, a console session's twelve hours) the entry written
 * longest ago is not the first to expire. Each entry knows its place in the heap, so that a write that moves its
 * expiry, or a delete, repairs the heap in place rather than leaving stale copies to sift through later.
 */

export interface HeapEntry {
  expiresAt: number;
  /** The entry's index in the heap; -1 once it is out. */
  slot: number;
}

export class ExpiryHeap<E extends HeapEntry> {
  readonly #items: E[] = [];

  /** The entry that expires first. */
  peek(): E | undefined {
    return this.#items[0];
  }

  push(entry: E): void {
    entry.slot = this.#items.length;
    this.#items.push(entry);
    this.#up(entry.slot);
  }

  /** Puts an entry whose expiresAt has changed back in its place. */
  moved(entry: E): void {
    this.#down(this.#up(entry.slot));
  }

  remove(entry: E): void {
    const at = entry.slot;
    if (at < 0) return;
    const last = this.#items.pop()!;
    entry.slot = -1;
    if (last === entry) return;
    this.#items[at] = last;
    last.slot = at;
    this.moved(last);
  }

  get size(): number {
    return this.#items.length;
  }

  #up(at: number): number {
    const items = this.#items;
    while (at > 0) {
      const parent = (at - 1) >> 1;
      if (items[parent]!.expiresAt <= items[at]!.expiresAt) break;
      this.#swap(at, parent);
      at = parent;
    }
    return at;
  }

  #down(at: number): void {
    const items = this.#items;
    for (;;) {
      const left = 2 * at + 1;
      if (left >= items.length) return;
      const right = left + 1;
      const child = right < items.length && items[right]!.expiresAt < items[left]!.expiresAt ? right : left;
      if (items[at]!.expiresAt <= items[child]!.expiresAt) return;
      this.#swap(at, child);
      at = child;
    }
  }

  #swap(a: number, b: number): void {
    const items = this.#items;
    const first = items[a]!;
    const second = items[b]!;
    items[a] = second;
    items[b] = first;
    second.slot = a;
    first.slot = b;
  }
}
