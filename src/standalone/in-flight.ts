/**
 * What the server is in the middle of: requests being answered and webhooks being delivered. A graceful shutdown
 * waits for them to settle (bounded, so that a hung shop or a slow client cannot keep the process alive past its
 * orchestrator's kill) before it closes the store under them. Event streams are not counted: they are answers
 * that never end on their own, and the browser reconnects to the next process.
 */

export class InFlight {
  #count = 0;
  #waiters: (() => void)[] = [];

  get count(): number {
    return this.#count;
  }

  /** Counts `work` until it settles, whichever way. */
  async track<T>(work: () => Promise<T>): Promise<T> {
    this.#count++;
    try {
      return await work();
    } finally {
      this.#count--;
      if (this.#count === 0) for (const wake of this.#waiters.splice(0)) wake();
    }
  }

  /** Resolves true once nothing is in flight, or false when `graceMs` passes first. */
  settled(graceMs: number): Promise<boolean> {
    if (this.#count === 0) return Promise.resolve(true);
    return new Promise((resolve) => {
      const wake = () => {
        clearTimeout(timer);
        resolve(true);
      };
      const timer = setTimeout(() => {
        this.#waiters = this.#waiters.filter((w) => w !== wake);
        resolve(false);
      }, graceMs);
      this.#waiters.push(wake);
    });
  }
}
