/**
 * The mark of a second paid payment of an order (a refund to do), which the console's "second" list reads. Written
 * over the version read (write-over.ts), like the operator's marks: a state the ledger writes meanwhile is kept, and
 * a mark that cannot be written is an error for the caller to report or retry, never a silent gap in the list.
 */
import type { ResolvedOptions } from '../resolved-options.js';
import { writeOver } from './write-over.js';

/** Marks paid payment `paymentId` as the second payment of an order that `firstId` paid. The view does not change. */
export async function markSecondPayment(options: ResolvedOptions, paymentId: string, firstId: string): Promise<void> {
  await writeOver(options.store, paymentId, 'mark it the second payment of its order', undefined, (current) => ({
    answer: undefined,
    write:
      current.secondPaymentOf === firstId
        ? undefined
        : { ...current, secondPaymentOf: firstId, version: current.version + 1, updatedAt: options.clock.now() },
  }));
}
