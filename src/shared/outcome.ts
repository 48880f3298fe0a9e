/**
 * What a payment's state means to a shopper and to a shop. The service speaks in states (`created`, `pending`,
 * `in_check`, `finished`, ...); everything above the wire speaks in outcomes, so that a state the service adds
 * tomorrow degrades to "still checking" instead of a wrong "paid" or a wrong "expired".
 */

export type Outcome = 'waiting' | 'checking' | 'paid' | 'expired' | 'failed';

/** The payin states the provider documents. Any other string may still arrive and is handled as unknown. */
export const KNOWN_STATES = [
  'created',
  'pending',
  'in_check',
  'dispute',
  'finished',
  'canceled',
  'expired',
  'failed',
] as const;

export type KnownState = (typeof KNOWN_STATES)[number];

const OUTCOMES: Record<KnownState, Outcome> = {
  created: 'waiting',
  pending: 'waiting',
  in_check: 'checking',
  dispute: 'checking',
  finished: 'paid',
  canceled: 'failed',
  expired: 'expired',
  failed: 'failed',
};

export function isKnownState(state: string): state is KnownState {
  return Object.hasOwn(OUTCOMES, state);
}

/** The outcome of a state; an unknown state is `checking`, never final. */
export function outcomeOf(state: string): Outcome {
  return isKnownState(state) ? OUTCOMES[state] : 'checking';
}

/** A final state never changes again: paid, expired or failed. */
export function isFinalState(state: string): boolean {
  return isFinalOutcome(outcomeOf(state));
}

export function isFinalOutcome(outcome: Outcome): boolean {
  return outcome === 'paid' || outcome === 'expired' || outcome === 'failed';
}

/**
 * How far along a state is, so that an older state never overwrites a newer one (callbacks may arrive late or
 * out of order). Final states rank highest; an unknown state ranks with the checking ones.
 */
export function stateRank(state: string): number {
  switch (outcomeOf(state)) {
    case 'waiting':
      return state === 'created' ? 0 : 1;
    case 'checking':
      return 2;
    default:
      return 3;
  }
}
