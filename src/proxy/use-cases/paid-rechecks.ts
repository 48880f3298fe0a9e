/**
 * A callback said an open payment was paid and the service's status answer does not say so yet: the answer may lag
 * the service's own callback by a few seconds. The payment is asked about again a few times over the next minute
 * (2, 5, 15 and 45 s) until it is final; the reconcile sweep goes on after that. One series per payment at a time,
 * however many callbacks started it: each copy of a replayed callback scheduled four calls of its own, so a captured
 * "paid" posted N times made 4N calls to the service. A series that is over may be started again by the next
 * callback. At most `maxPayments` series run at once; past that a payment is left to the sweep, which follows every
 * open payment anyway, so the set of payments being re-checked stays bounded whatever is posted. `close()` clears
 * the timers and waits for a re-check under way: a server closes its store next, and a timer left behind asked the
 * service about each payment, and wrote to the closed store, for up to 45 s after the proxy was closed.
 */
import type { Ledger } from '../ledger/ledger.js';
import type { ResolvedOptions } from '../resolved-options.js';

/** When each re-check is made, counted from the callback. */
const RECHECK_AT_MS = [2_000, 5_000, 15_000, 45_000];

export class PaidRechecks {
  /** By payment, the timer of its next re-check; none while that re-check runs. */
  readonly #running = new Map<string, unknown>();
  /** The re-checks under way, which close() waits for. */
  readonly #asking = new Set<Promise<void>>();
  #closed = false;

  constructor(
    private readonly options: ResolvedOptions,
    private readonly ledger: Ledger,
    private readonly maxPayments = 10_000,
  ) {}

  /** Starts the series for `paymentId`, unless one is under way. */
  soon(paymentId: string): void {
    if (this.#closed || this.#running.has(paymentId) || this.#running.size >= this.maxPayments) return;
    this.#step(paymentId, 0);
  }

  /** Starts no more re-checks and waits for the one under way, if any. */
  async close(): Promise<void> {
    this.#closed = true;
    for (const timer of this.#running.values()) this.options.clock.clearTimeout(timer);
    this.#running.clear();
    await Promise.allSettled(this.#asking);
  }

  #step(paymentId: string, i: number): void {
    if (this.#closed || i >= RECHECK_AT_MS.length) {
      this.#running.delete(paymentId);
      return;
    }
    const { clock, logger } = this.options;
    const timer = clock.setTimeout(
      () => {
        this.#running.set(paymentId, undefined);
        const asking = this.#recheck(paymentId)
          .catch((error) => {
            logger.warn('asking the service again about a payment failed', { paymentId, error: String(error) });
            return true;
          })
          .then((goOn) => {
            this.#asking.delete(asking);
            if (goOn) this.#step(paymentId, i + 1);
            else this.#running.delete(paymentId);
          });
        this.#asking.add(asking);
      },
      RECHECK_AT_MS[i]! - (i === 0 ? 0 : RECHECK_AT_MS[i - 1]!),
    );
    this.#running.set(paymentId, timer);
  }

  /** Asks once; false when there is nothing more to ask (the payment is final, or no longer stored). */
  async #recheck(paymentId: string): Promise<boolean> {
    const record = await this.options.store.getPayment(paymentId);
    if (!record || record.view.final) return false;
    const observed = await this.ledger.observe(await this.ledger.fetchFresh(paymentId), undefined, 'callback');
    return observed !== undefined && !observed.view.final;
  }
}
