/**
 * The marks the operator's console reads beside a payment's view, written to the store: lines of its timeline
 * (each state with where it came from, each announcement attempt with its answer) and the mark of a second paid
 * payment of an order. Written by the ledger and its outbox (a store write each, so it lives with the store); a
 * store without the console operations keeps no timeline, and a line that could not be stored never fails the
 * payment's own work.
 */
import type { HistoryEntry } from './console-store.js';
import type { ResolvedOptions } from '../resolved-options.js';

export async function appendHistory(options: ResolvedOptions, paymentId: string, entry: HistoryEntry): Promise<void> {
  try {
    await options.store.appendHistory?.(paymentId, entry);
  } catch (error) {
    options.logger.warn('a line of the payment timeline could not be stored', { paymentId, error: String(error) });
  }
}

/**
 * Marks a paid payment as the second payment of an order that `firstId` paid (a refund to do). The view does not
 * change, so nothing is published; the version still grows, as for any write.
 */
export async function markSecondPayment(options: ResolvedOptions, paymentId: string, firstId: string): Promise<void> {
  const { store, clock } = options;
  for (let attempt = 0; attempt < 16; attempt++) {
    const current = await store.getPayment(paymentId);
    if (!current || current.secondPaymentOf === firstId) return;
    const next = { ...current, secondPaymentOf: firstId, version: current.version + 1, updatedAt: clock.now() };
    if (await store.putPayment(next, current.version)) return;
  }
}
