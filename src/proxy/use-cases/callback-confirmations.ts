/**
 * The status answers that confirm or deny what a callback says about a final payment (final-contradiction.ts),
 * shared for the coalescing window (`timeouts.coalesceMs`) by every callback of that payment and state. Nothing in
 * a signed callback tells a replay from the service's own delivery: each copy of a captured one made a status call
 * of its own, so anyone holding one could have the proxy call the service as often as they posted it. Now a copy
 * costs at most one call per window, and one in flight serves every copy that arrives meanwhile.
 *
 * Keyed by the state the callback says as well as the payment: a callback of another state is other news (the
 * service closing the dispute it opened a second ago), and it is asked about afresh. A genuine callback of the same
 * state within a window of a replay is answered from the replay's status call, at most `coalesceMs` old.
 */
import { Coalescer } from '../infrastructure/coalesce.js';
import type { Ledger } from '../ledger/ledger.js';
import type { ObservedPayment } from '../ledger/payment-view-mapper.js';
import type { ResolvedOptions } from '../resolved-options.js';

export class CallbackConfirmations {
  readonly #answers: Coalescer<ObservedPayment>;

  constructor(
    options: ResolvedOptions,
    private readonly ledger: Ledger,
  ) {
    this.#answers = new Coalescer(options.clock, options.timeouts.coalesceMs);
  }

  /** What the service says of the payment now, for a callback that said `state`; shared as above. */
  answer(paymentId: string, state: string): Promise<ObservedPayment> {
    const key = JSON.stringify([paymentId, state]);
    return this.#answers.shared(key) ?? this.#answers.track(key, this.ledger.fetchFresh(paymentId));
  }
}
