/**
 * A write of a payment's record that is not a state (an operator's mark, the ledger's own marks of a contradiction
 * and of a second payment): written over the version that was read, like every write of a payment, so that a change
 * the ledger writes meanwhile (a state, a follow window) is read again and kept, and of two writers at once one wins
 * and the other decides again on the winner's record.
 */
import type { PaymentRecord, ProxyStore } from '../infrastructure/store.js';

/** Writes a lost race over again at most this many times: each loss is another writer's progress. */
const ATTEMPTS = 16;

/**
 * Reads the record, writes what `decide` makes of it (nothing without `write`) and answers its `answer`; reads and
 * decides again while another writer wins. `missing` is the answer for a payment the store does not hold; `what`
 * names the write in the error thrown when the record kept changing.
 */
export async function writeOver<T>(
  store: ProxyStore,
  paymentId: string,
  what: string,
  missing: T,
  decide: (current: PaymentRecord) => { answer: T; write?: PaymentRecord },
): Promise<T> {
  for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
    const current = await store.getPayment(paymentId);
    if (!current) return missing;
    const { answer, write } = decide(current);
    if (!write || (await store.putPayment(write, current.version))) return answer;
  }
  throw new Error(`payment ${paymentId} kept changing under ${ATTEMPTS} attempts to ${what}`);
}
