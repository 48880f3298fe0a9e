/**
 * What came of asking the service, as a value: its answer, or its refusal or failure (an UpstreamError). A
 * Coalescer shares a value for its window after the work is done but drops a rejection at once (coalesce.ts), so
 * whoever must not ask a struggling service again right after it failed (the copies of one callback, the pollers
 * and event streams of one payment) hands the Coalescer work that resolves to this, and the failure is kept under
 * the same key, window and bound as an answer. Anything else thrown is a fault of this process (the store, a bug),
 * not the service's word, and stays a rejection that is not kept.
 */
import { UpstreamError } from './upstream-client.js';

export type ServiceOutcome<T> = { answer: T } | { error: UpstreamError };

/** `work`'s answer, or its UpstreamError, as a value; any other rejection passes through. */
export async function outcomeOf<T>(work: Promise<T>): Promise<ServiceOutcome<T>> {
  try {
    return { answer: await work };
  } catch (error) {
    if (error instanceof UpstreamError) return { error };
    throw error;
  }
}

/** The answer, or the very UpstreamError thrown again: every sharer is answered as the one that asked (502, 504). */
export function answerOf<T>(outcome: ServiceOutcome<T>): T {
  if ('error' in outcome) throw outcome.error;
  return outcome.answer;
}
