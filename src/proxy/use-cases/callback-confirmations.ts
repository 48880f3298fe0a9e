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
 * too and shared as one.
 *
 * So is a failure (the service down, timing out, answering a gateway's page) for the window after it: while the
 * service struggles, a copy posted right after a failed call was a call of its own, so a captured callback posted N
 * times made N calls to the service when it could least take them, each holding a socket of the proxy for up to
 * `statusDeadlineMs`. Every copy still gets the failure, and so 502 (504 for a time-out), never a 200 for what was
 * not confirmed, and the service delivers the callback again; its redelivery, stamped with the second it is sent in
 * (`datetime`), is other bytes once sent in a later second and asks afresh at once (any copy after the window does
 * too), so a "paid" the service confirms by then is recorded. The answers are kept in the Coalescer's bounded map
 * (10,000 callbacks, each for `coalesceMs`), whatever they were.
 */
import { Coalescer } from '../infrastructure/coalesce.js';
import { answerOf, outcomeOf, type ServiceOutcome } from '../infrastructure/service-outcome.js';
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

export class CallbackConfirmations {
  /** The payment, or the service's refusal to describe it, or its failure to answer (service-outcome.ts). */
  readonly #answers: Coalescer<ServiceOutcome<ObservedPayment>>;

  constructor(
    options: ResolvedOptions,
    private readonly ledger: Ledger,
  ) {
    this.#answers = new Coalescer(options.clock, options.timeouts.coalesceMs);
  }

  /**
   * What the service says of the payment now, for the callback named `heard` (`callbackName`); shared as above.
   * Rejects with the service's refusal (an UpstreamError that is not `retryable`) or its failure (one that is), as
   * `ledger.fetchFresh` does.
   */
  async answer(paymentId: string, heard: string): Promise<ObservedPayment> {
    const key = JSON.stringify([paymentId, heard]);
    return answerOf(await (this.#answers.shared(key) ?? this.#answers.track(key, outcomeOf(this.ledger.fetchFresh(paymentId)))));
  }
}
