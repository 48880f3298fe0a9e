/**
 * The browser's manual clock for the widget tests (src/server/manual-clock.ts is the Node one): time moves only
 * through `advance(ms)`, which fires the timers that fall due in order and lets the promises each one starts
 * settle before the next. Network answers are real, so a test advances the clock and then waits, with a bound,
 * for what the answer changes.
 */
import { waitUntil } from '@open-wc/testing';
import type { Clock } from '../../../src/widget/clock.js';

interface Timer {
  id: number;
  at: number;
  callback: () => void;
}

export class ManualClock implements Clock {
  #now: number;
  #timers: Timer[] = [];
  #nextId = 1;

  constructor(start = Date.now()) {
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

  /** Moves time forward by `ms`, firing due timers in order (bounded, so that a timer loop cannot hang a test). */
  async advance(ms: number): Promise<void> {
    const end = this.#now + ms;
    for (let fired = 0; fired < 10_000; fired++) {
      await settle();
      const next = this.#timers.filter((t) => t.at <= end).sort((a, b) => a.at - b.at || a.id - b.id)[0];
      if (!next) break;
      this.#timers = this.#timers.filter((t) => t !== next);
      this.#now = Math.max(this.#now, next.at);
      next.callback();
    }
    this.#now = end;
    await settle();
  }

  /**
   * Without moving time, fires what is due now until `condition` holds, within `ms`: for the timers of no delay
   * that something real sets (this tab taking the lead, a stream failing), which a test cannot await itself.
   */
  async until(condition: () => boolean, what: string, ms = 5000): Promise<void> {
    await waitUntil(
      async () => {
        await this.advance(0);
        return condition();
      },
      what,
      { timeout: ms, interval: 20 },
    );
  }
}

async function settle(): Promise<void> {
  for (let i = 0; i < 20; i++) await Promise.resolve();
}
