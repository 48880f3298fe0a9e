/**
 * The ledger's writers of a contradiction's marks: the ledger's own, that the service contradicted the final state
 * the shop was told (use-cases/final-contradiction.ts), and the operator's, that it was dealt with at the service.
 * Without the first an operator could find such a payment only in the log or by opening it; without the second the
 * console's count of contradictions would never fall, and so would not say how much work is left. Each is written
 * over the version that was read, like every write of a payment, so that a state the ledger writes meanwhile is
 * read again and kept, and of two operators marking at once one wins and the other reads the winner's mark. The
 * view does not change, so nothing is published or announced.
 */
import type { Clock } from '../../shared/clock.js';
import { isResolved } from '../infrastructure/console-store.js';
import type { PaymentRecord, ProxyStore, ResolutionMark } from '../infrastructure/store.js';

type Writer = { store: ProxyStore; clock: Clock };

/** Writes a lost race over again at most this many times: each loss is another writer's progress. */
const ATTEMPTS = 16;

/**
 * Marks the payment contradicted by `state`, unless it already is by that state (the service delivers a callback
 * again until it is answered). Another state replaces the mark: the newest contradiction is the one to look into.
 */
export async function markContradicted({ store, clock }: Writer, paymentId: string, state: string): Promise<void> {
  await writeOver(store, paymentId, (current) => {
    if (current.contradicted?.state === state) return undefined;
    const at = clock.now();
    return { ...current, contradicted: { at, state }, version: current.version + 1, updatedAt: at };
  });
}

export type ResolutionMarking =
  | { marked: PaymentRecord }
  /** Someone marked it first: their mark, to tell the operator who and when. */
  | { already: ResolutionMark }
  | { refused: 'unknown' | 'not-contradicted' };

/** Records the operator's word that the payment's contradiction was dealt with, once per contradicted state. */
export async function markResolved(
  { store, clock }: Writer,
  paymentId: string,
  { operator, note }: { operator: string; note?: string },
): Promise<ResolutionMarking> {
  let answer: ResolutionMarking = { refused: 'unknown' };
  await writeOver(store, paymentId, (current) => {
    if (current.contradicted === undefined) return void (answer = { refused: 'not-contradicted' });
    if (isResolved(current)) return void (answer = { already: current.contradictionResolved! });
    const at = clock.now();
    const mark: ResolutionMark = { at, operator, state: current.contradicted.state, ...(note ? { note } : {}) };
    const next = { ...current, contradictionResolved: mark, version: current.version + 1, updatedAt: at };
    answer = { marked: next };
    return next;
  });
  return answer;
}

/** Reads the record and writes what `change` makes of it (nothing when undefined), again while another writer wins. */
async function writeOver(store: ProxyStore, paymentId: string, change: (current: PaymentRecord) => PaymentRecord | undefined) {
  for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
    const current = await store.getPayment(paymentId);
    const next = current && change(current);
    if (!current || !next || (await store.putPayment(next, current.version))) return;
  }
  throw new Error(`payment ${paymentId} kept changing under ${ATTEMPTS} attempts to mark its contradiction`);
}
