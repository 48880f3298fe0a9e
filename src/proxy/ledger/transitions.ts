/**
 * Which state wins, in one table beside the ledger (as the sandbox keeps its own in state-machine.ts). The
 * service's callbacks carry no sequence number and may arrive late, twice or out of order, and a status answer
 * may lag a callback: the ledger therefore takes an observed state only when the table lets it follow the stored
 * one. The service's states fall into four stages; a payment moves forward through them and never back, may
 * change within its stage (in_check and dispute take turns), and once final it never changes again. A state the
 * service adds tomorrow is `checking` (shared/outcome.ts), so it can neither undo a final state nor be undone by
 * a late `pending`.
 */
import { stateRank } from '../../shared/outcome.js';
import type { StoredView } from '../infrastructure/store.js';

export type Stage = 'created' | 'waiting' | 'checking' | 'final';

/** The stages a stored payment in each stage may move to. */
const MAY_FOLLOW: Record<Stage, readonly Stage[]> = {
  created: ['created', 'waiting', 'checking', 'final'],
  waiting: ['waiting', 'checking', 'final'],
  checking: ['checking', 'final'],
  final: [],
};

/** The stages in the order of stateRank, the ranking the widget also uses to drop a stale answer. */
const STAGES: readonly Stage[] = ['created', 'waiting', 'checking', 'final'];

export function stageOf(state: string): Stage {
  return STAGES[stateRank(state)]!;
}

/**
 * True when an observation of `observedState` may replace the stored view (nothing stored yet: always). The
 * view's own `final` counts, so that a finished payment whose outcome is underpaid stays as it is too.
 */
export function mayFollow(stored: StoredView | undefined, observedState: string): boolean {
  if (!stored) return true;
  const from: Stage = stored.final ? 'final' : stageOf(stored.state);
  return MAY_FOLLOW[from].includes(stageOf(observedState));
}

/** True while a payment in `state` still asks the shopper to pay (created or waiting): its sum is on the screen. */
export function stillAsking(state: string): boolean {
  const stage = stageOf(state);
  return stage === 'created' || stage === 'waiting';
}
