/**
 * The ledger's writers of a contradiction's marks: the ledger's own, that the service contradicted the final state
 * the shop was told (use-cases/final-contradiction.ts), and the operator's, that it was dealt with at the service.
 * Without the first an operator could find such a payment only in the log or by opening it; without the second the
 * console's count of contradictions would never fall, and so would not say how much work is left. Each is written
 * over the version that was read (write-over.ts): of two operators marking at once one wins and the other reads the
 * winner's mark. The view does not change, so nothing is published or announced.
 */
import type { Clock } from '../../shared/clock.js';
import { isResolved } from '../infrastructure/console-store.js';
import type { ContradictionMark, HistoryEntry, PaymentRecord, ProxyStore, ResolutionMark } from '../infrastructure/store.js';
import { writeOver } from './write-over.js';

type Writer = { store: ProxyStore; clock: Clock };

/**
 * Marks the payment contradicted by `state` (confirmed at `at`, now unless said), unless it already is by that state
 * (the service delivers a callback again until it is answered) and the service has not agreed with the final state
 * since (markContradictionEnded). Another state replaces the mark: the newest contradiction is the one to look into.
 */
export async function markContradicted({ store, clock }: Writer, paymentId: string, state: string, at = clock.now()): Promise<void> {
  await writeOver(store, paymentId, 'mark its contradiction', undefined, (current) => {
    if (current.contradicted?.state === state && isOngoing(current.contradicted)) return { answer: undefined };
    return { answer: undefined, write: marked(current, { at, state }, clock.now()) };
  });
}

/**
 * True when the payment is contradicted and the service has not agreed with the final state since: the same
 * contradiction heard now is that one, delivered again, and a callback of the final state may be the news of its end.
 */
export function isOngoing(contradicted: ContradictionMark | undefined): contradicted is ContradictionMark {
  return contradicted !== undefined && contradicted.endedAt === undefined;
}

/**
 * Notes that the service, asked afresh, says the final state the shop was told once more (a dispute it closed in the
 * shop's favour): the same contradiction heard after this is a new one. The console lists it as before.
 */
export async function markContradictionEnded({ store, clock }: Writer, paymentId: string): Promise<void> {
  await writeOver(store, paymentId, 'mark its contradiction ended', undefined, (current) => {
    if (!isOngoing(current.contradicted)) return { answer: undefined };
    const now = clock.now();
    return { answer: undefined, write: marked(current, { ...current.contradicted, endedAt: now }, now) };
  });
}

/** The record with its contradiction mark, written at `now`. */
export function marked(record: PaymentRecord, contradicted: ContradictionMark, now: number): PaymentRecord {
  return { ...record, contradicted, version: record.version + 1, updatedAt: now };
}

/**
 * The newest contradiction line of a timeline, if any: what a store marks, on its first start of this release, a
 * payment with that was noted by a release that wrote only the line (its back-fill), so that the console lists it.
 */
export function newestContradiction(history: readonly HistoryEntry[]): { at: number; state: string } | undefined {
  for (let i = history.length - 1; i >= 0; i--) {
    const line = history[i]!;
    if (line.kind === 'contradiction') return { at: line.at, state: line.state };
  }
  return undefined;
}

export type ResolutionMarking =
  | { marked: PaymentRecord }
  /** Someone marked it first: their mark, to tell the operator who and when. */
  | { already: ResolutionMark }
  | { refused: 'unknown' | 'not-contradicted' };

/** Records the operator's word that the payment's contradiction was dealt with, once per contradiction. */
export async function markResolved(
  { store, clock }: Writer,
  paymentId: string,
  { operator, note }: { operator: string; note?: string },
): Promise<ResolutionMarking> {
  return writeOver<ResolutionMarking>(store, paymentId, 'mark its contradiction', { refused: 'unknown' }, (current) => {
    if (current.contradicted === undefined) return { answer: { refused: 'not-contradicted' } };
    if (isResolved(current)) return { answer: { already: current.contradictionResolved! } };
    const at = clock.now();
    const { state, at: contradictedAt } = current.contradicted;
    const mark: ResolutionMark = { at, operator, state, contradictedAt, ...(note ? { note } : {}) };
    const next = { ...current, contradictionResolved: mark, version: current.version + 1, updatedAt: at };
    return { answer: { marked: next }, write: next };
  });
}
