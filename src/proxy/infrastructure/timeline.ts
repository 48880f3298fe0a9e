/**
 * The lines of a payment's timeline that the operator's console reads beside its view, written to the store: each
 * state with where it came from, each announcement attempt with its answer, each thing the service said against a
 * final state. Written by the ledger and its outbox (a store write each, so it lives with the store); a store
 * without the console operations keeps no timeline, and a line that could not be stored never fails the payment's
 * own work. (The mark of a second payment is a write of the record: ledger/second-payment-mark.ts.)
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

export type ContradictionEntry = Extract<HistoryEntry, { kind: 'contradiction' }>;

/**
 * Adds the line of a contradiction unless the timeline already holds the same one: the service delivers a callback
 * again until it is answered, and checks it on every one, so one contradiction would otherwise fill the timeline.
 * Two identical callbacks at the same instant may both add it (the read and the append are not one step); a
 * timeline line is worth no lock. `lastOneEnded`: the service agreed with the final state since the last one (a
 * dispute it closed and opened again), so the same words are a line of their own.
 */
export async function appendContradiction(
  options: ResolvedOptions,
  paymentId: string,
  entry: ContradictionEntry,
  lastOneEnded = false,
): Promise<void> {
  if (lastOneEnded) return appendHistory(options, paymentId, entry);
  let history: HistoryEntry[];
  try {
    history = (await options.store.paymentHistory?.(paymentId)) ?? [];
  } catch (error) {
    options.logger.warn('a line of the payment timeline could not be stored', { paymentId, error: String(error) });
    return;
  }
  if (history.some((h) => h.kind === 'contradiction' && sameContradiction(h, entry))) return;
  await appendHistory(options, paymentId, entry);
}

function sameContradiction(a: ContradictionEntry, b: ContradictionEntry): boolean {
  return a.state === b.state && a.recorded === b.recorded && a.amount === b.amount && a.currency === b.currency;
}
