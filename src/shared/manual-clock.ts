/**
 * A Clock that only moves when told to: `advance(ms)` runs every timer that falls due, in order, letting the
 * promises each one starts settle before the next. Exported (payin-checkout/node) for shops' own tests against the
 * sandbox; the element's browser tests use it too.
 */
import type { Clock } from './clock.js';

interface Timer {
  id: number;
  at: number;
  callback: () => void;
}

export class ManualClock implements Clock {
  #now: number;
  #timers: Timer[] = [];
  #nextId = 1;

  constructor(start = Date.UTC(2026, 0, 15, 10, 0, 0)) {
    this.#now = start;
  }

  now(): number {
    return this.#now;
  }

  setTimeout(callback: () => void, ms: number): unknown {
    const timer = { id: this.#nextId++, at: this.#now + Math.max(0, ms), callback };
    this.#timers.push(timer);
    return timer.id;
  }

  clearTimeout(handle: unknown): void {
    this.#timers = this.#timers.filter((t) => t.id !== handle);
  }

  /** How many timers are waiting. */
  get pending(): number {
    return this.#timers.length;
  }

  /** Moves time forward by `ms`, firing due timers in order (bounded, so a timer loop cannot hang a test). */
  async advance(ms: number): Promise<void> {
    const end = this.#now + ms;
    for (let fired = 0; fired < 10_000; fired++) {
      await flushMicrotasks();
      const next = this.#timers.filter((t) => t.at <= end).sort((a, b) => a.at - b.at || a.id - b.id)[0];
      if (!next) break;
      this.#timers = this.#timers.filter((t) => t !== next);
      this.#now = Math.max(this.#now, next.at);
      next.callback();
    }
    this.#now = end;
    await flushMicrotasks();
  }
}

async function flushMicrotasks(): Promise<void> {
  for (let i = 0; i < 20; i++) await Promise.resolve();
  // In Node one turn of the event loop too, for what a timer started outside the promise chain (a stream's data);
  // browser tests wait for the network with bounded polls of their own.
  await new Promise<void>((resolve) => (typeof setImmediate === 'function' ? setImmediate(() => resolve()) : queueMicrotask(resolve)));
}
