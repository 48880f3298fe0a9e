/**
 * The ledger's writer of an operator's refund mark: a second payment of an order (a refund to do) that the
 * operator refunded at the payment service is marked so in its record, once. The mark is written over the version
 * that was read (write-over.ts), so that of two operators marking it at once one wins and the other reads the
 * winner's mark, never a second refund to do. The view does not change, so nothing is published or announced.
 */
import type { Clock } from '../../shared/clock.js';
import type { PaymentRecord, ProxyStore, RefundMark } from '../infrastructure/store.js';
import { writeOver } from './write-over.js';

export type RefundMarking =
  | { marked: PaymentRecord }
  /** Someone marked it first: their mark, to tell the operator who and when. */
  | { already: RefundMark }
  | { refused: 'unknown' | 'not-second' };

export async function markRefunded(
  { store, clock }: { store: ProxyStore; clock: Clock },
  paymentId: string,
  { operator, reference }: { operator: string; reference?: string },
): Promise<RefundMarking> {
  return writeOver<RefundMarking>(store, paymentId, 'mark it refunded', { refused: 'unknown' }, (current) => {
    if (current.refunded) return { answer: { already: current.refunded } };
    if (current.secondPaymentOf === undefined) return { answer: { refused: 'not-second' } };
    const at = clock.now();
    const refunded: RefundMark = { at, operator, ...(reference ? { reference } : {}) };
    const next = { ...current, refunded, version: current.version + 1, updatedAt: at };
    return { answer: { marked: next }, write: next };
  });
}
