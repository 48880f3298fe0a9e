/**
 * A final state never changes (ledger/transitions.ts): the shop was told it once, the page showed it, and a signed
 * callback carries no sequence number to tell news from a late copy. Yet the service may still say something else
 * about a final payment where money is at stake: finished after it expired (the payer's money came late, or a
 * dispute reopened it), or canceled, failed or disputed after it finished (a reversal). No state changes and the
 * shop hears nothing; the operator hears of it in the log, a warning that names both states, on the payment's
 * timeline in the console (once per distinct contradiction), and in the console's list of contradictions to look
 * into (the record's mark, ledger/contradiction-marks.ts), or the money sits at the service with nobody knowing.
 * Callbacks come late and out of order (a dispute delivered after the finish that ended it), so one is believed only
 * once a fresh status answer says the same.
 */
import { isPaidState } from '../../shared/outcome.js';
import type { ProxyContext } from '../context.js';
import type { PaymentRecord, StoredView } from '../infrastructure/store.js';
import { confirmsPaid, type ObservedPayment } from '../ledger/payment-view-mapper.js';
import { stageOf } from '../ledger/transitions.js';
import { appendContradiction } from '../infrastructure/timeline.js';
import { markContradicted, markContradictionEnded } from '../ledger/contradiction-marks.js';

/**
 * True when `observed` says something about the final `view` that changes whether the shop has the money: paid
 * where it was not, unpaid where it was, or a dispute. A late pending or in_check, or another unpaid final state
 * after an unpaid one, does not.
 */
export function contradictsFinal(view: StoredView, observed: ObservedPayment): boolean {
  if (!view.final || observed.state === view.state) return false;
  if (observed.state === 'dispute') return true;
  return stageOf(observed.state) === 'final' && confirmsPaid(observed) !== isPaidState(view.state);
}

/**
 * Asks the service about a final payment that the callback named `heard` contradicts and, when its answer does
 * too, warns and notes it on the payment's timeline and in its record. The answer is shared with the callback's
 * copies for the coalescing window (callback-confirmations.ts). Throws when the service cannot answer or the mark
 * cannot be written, so that the callback is delivered again.
 */
export async function checkContradiction(record: PaymentRecord, heard: string, ctx: ProxyContext): Promise<void> {
  const { view } = record;
  const fresh = await ctx.confirmations.answer(view.id, heard);
  if (!contradictsFinal(view, fresh)) return;
  const { options } = ctx;
  options.logger.warn(
    'the service contradicts the final state the shop was told: nothing is changed or announced; look at the payment at the service (a refund to make, or a reversal)',
    {
      paymentId: view.id,
      orderId: view.orderId,
      recorded: view.state,
      outcome: view.outcome,
      now: fresh.state,
      ...(fresh.amount !== undefined ? { amount: `${fresh.amount} ${fresh.currency ?? view.currency}` } : {}),
    },
  );
  await appendContradiction(
    options,
    view.id,
    {
      at: options.clock.now(),
      kind: 'contradiction',
      state: fresh.state,
      ...(fresh.amount !== undefined ? { amount: fresh.amount, currency: fresh.currency ?? view.currency } : {}),
      recorded: view.state,
      outcome: view.outcome,
    },
    record.contradicted?.endedAt !== undefined,
  );
  await markContradicted(options, view.id, fresh.state);
}

/**
 * A callback of the final state itself, on a payment whose contradiction has not ended: when the service, asked
 * afresh, says that state too (a dispute it closed), the contradiction has ended, and the same one heard later is
 * a new one (a dispute opened again) that the console lists as work again, however the first was resolved. A late
 * copy of an older callback is no such news: the status answer still says the contradiction. Throws when the
 * service cannot answer or the mark cannot be written, so that the callback is delivered again.
 */
export async function checkContradictionEnded(record: PaymentRecord, heard: string, ctx: ProxyContext): Promise<void> {
  const fresh = await ctx.confirmations.answer(record.view.id, heard);
  if (fresh.state === record.view.state) await markContradictionEnded(ctx.options, record.view.id);
}
