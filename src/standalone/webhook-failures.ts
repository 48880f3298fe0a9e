/**
 * The failed attempts of the webhooks the shop has not taken yet, so that the log says the 1st, 2nd, 4th, 8th...
 * failure of one (logged-failures.ts). They are kept by payment, one state at a time: kept by webhook id (payment
 * and state), a failing state that a later one replaced stayed for the life of the process, since the outbox
 * commits a replaced state without calling the webhook again and only the shop's taking of a webhook forgot its
 * count. A failure of another state starts that state's count afresh; the shop taking any state of the payment ends
 * it. Another instance may deliver the later state, so at most `maxPayments` are kept, the oldest failing one going
 * first (its next failure is then said as a 1st).
 */

/** Payments with failing webhooks whose counts are kept: beyond it, a count starts again and its line is said early. */
export const MAX_FAILING_PAYMENTS = 10_000;

export class WebhookFailures {
  /** By payment id, in the order of their last failure (a Map keeps the order of insertion). */
  readonly #byPayment = new Map<string, { state: string; count: number }>();

  constructor(private readonly maxPayments = MAX_FAILING_PAYMENTS) {}

  /** Counts a failure of the payment's webhook of `state`; the number of this failure of that state (1-based). */
  failed(paymentId: string, state: string): number {
    const kept = this.#byPayment.get(paymentId);
    const count = kept?.state === state ? kept.count + 1 : 1;
    this.#byPayment.delete(paymentId);
    this.#byPayment.set(paymentId, { state, count });
    if (this.#byPayment.size > this.maxPayments) this.#byPayment.delete(this.#byPayment.keys().next().value!);
    return count;
  }

  /** The shop took a state of the payment: any count kept was of that state or of one it replaced. */
  taken(paymentId: string): void {
    this.#byPayment.delete(paymentId);
  }

  /** Payments whose failures are counted now. */
  get size(): number {
    return this.#byPayment.size;
  }
}
