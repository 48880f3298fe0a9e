/**
 * The ledger's writer of an operator's refund mark: a second payment of an order (a refund to do) that the
 * operator refunded at the payment service is marked so in its record, once. The mark is written over the version
 * that was read, like every write of a payment, so that of two operators marking it at once one wins and the other
 * reads the winner's mark, never a second refund to do; a change the ledger writes meanwhile (a state, a follow
 * window) is read again and kept. The view does not change, so nothing is published or announced.
 */
import type { Clock } from '../../shared/clock.js';
import type { PaymentRecord, ProxyStore, RefundMark } from '../infrastructure/store.js';

export type RefundMarking =
  | { marked: PaymentRecord }
  /** Someone marked it first: their mark, to tell the operator who and when. */
  | { already: RefundMark }
  | { refused: 'unknown' | 'not-second' };

/** Writes a lost race over again at most this many times: each loss is another writer's progress. */
const ATTEMPTS = 16;

export async function markRefunded(
  { store, clock }: { store: ProxyStore; clock: Clock },
  paymentId: string,
  { operator, reference }: { operator: string; reference?: string },
): Promise<RefundMarking> {
  for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
    const current = await store.getPayment(paymentId);
    if (!current) return { refused: 'unknown' };
    if (current.refunded) return { already: current.refunded };
    if (current.secondPaymentOf === undefined) return { refused: 'not-second' };
    const at = clock.now();
    const refunded: RefundMark = { at, operator, ...(reference ? { reference } : {}) };
    const next = { ...current, refunded, version: current.version + 1, updatedAt: at };
    if (await store.putPayment(next, current.version)) return { marked: next };
  }
  throw new Error(`payment ${paymentId} kept changing under ${ATTEMPTS} attempts to mark it refunded`);
}
