/**
 * The status answers that check what a signed callback says: that a final payment changed (final-contradiction.ts),
 * that an open one is paid, or that a payment the store has no record of exists (callback-route.ts). Each is shared
 * for the coalescing window (`timeouts.coalesceMs`) by every copy of the callback. Nothing in a signed callback tells
 * a replay from the service's own delivery: each copy of a captured one made a status call of its own, so anyone
 * holding one could have the proxy call the service as often as they posted it. Now a copy costs at most one call
 * per window, and one in flight serves every copy that arrives meanwhile.
 *
 * A copy is the same signed bytes, named by their signature (`callbackName`). Any other callback is other news, the
 * service saying something anew (closing the dispute it opened a second ago, confirming the finish it had not), and
 * is asked about afresh: keyed by payment and state alone, a finish confirmed a second after an unconfirmed one was
 * answered from the call made for the first, and waited for a re-check. A genuine redelivery within a window of a
 * replay is answered from the replay's status call, at most `coalesceMs` old; a "paid" it does not confirm yet is
 * asked about again by the re-checks (paid-rechecks.ts). A refusal (the service knows no such payment) is an answer
 * too and shared as one; an outage is not kept, so the next copy asks again.
 */
import { Coalescer } from '../infrastructure/coalesce.js';
import { UpstreamError } from '../infrastructure/upstream-client.js';
import type { Ledger } from '../ledger/ledger.js';
import type { ObservedPayment } from '../ledger/payment-view-mapper.js';
import type { ResolvedOptions } from '../resolved-options.js';
import { bytesToHex } from '../../shared/bytes.js';
import { decodedSignature, type SignatureEncoding } from '../../shared/hmac.js';

/**
 * The name of a verified callback: its signature, decoded and written one way, so that a copy with the hex in
 * other case or the base64 unpadded is still a copy. A signature names the bytes it signs, so a copy carries the
 * same one and no other callback can.
 */
export function callbackName(signature: string, encoding: SignatureEncoding): string {
  return bytesToHex(decodedSignature(signature, encoding) ?? new Uint8Array());
}

/** What the service said: the payment, or its refusal to describe it. */
type Said = { payment: ObservedPayment } | { refusal: UpstreamError };

export class CallbackConfirmations {
  readonly #answers: Coalescer<Said>;

  constructor(
    options: ResolvedOptions,
    private readonly ledger: Ledger,
  ) {
    this.#answers = new Coalescer(options.clock, options.timeouts.coalesceMs);
  }

  /**
   * What the service says of the payment now, for the callback named `heard` (`callbackName`); shared as above.
   * Rejects with the service's refusal (an UpstreamError that is not `retryable`) or its failure, as
   * `ledger.fetchFresh` does.
   */
  async answer(paymentId: string, heard: string): Promise<ObservedPayment> {
    const key = JSON.stringify([paymentId, heard]);
    const said = await (this.#answers.shared(key) ?? this.#answers.track(key, this.#ask(paymentId)));
    if ('refusal' in said) throw said.refusal;
    return said.payment;
  }

  async #ask(paymentId: string): Promise<Said> {
    try {
      return { payment: await this.ledger.fetchFresh(paymentId) };
    } catch (error) {
      if (error instanceof UpstreamError && !error.retryable) return { refusal: error };
      throw error;
    }
  }
}
