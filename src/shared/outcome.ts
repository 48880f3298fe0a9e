/**
 * What a payment's state means to a shopper and to a shop. The service speaks in states (`created`, `pending`,
 * `in_check`, `finished`, ...); everything above the wire speaks in outcomes, so that a state the service adds
 * tomorrow degrades to "still checking" instead of a wrong "paid" or a wrong "expired".
 */
import { normalizeAmount, toMinorUnits } from './money.js';

/**
 * `underpaid` is a `finished` payment whose paid amount is less than the amount the shop priced (the service's
 * "success with recalculation"): final, but not a reason to ship. Only the proxy, which knows the price, can tell
 * it from `paid`; see `settledOutcome`.
 */
export type Outcome = 'waiting' | 'checking' | 'paid' | 'underpaid' | 'superseded' | 'expired' | 'failed';

/**
 * `superseded` is a payment of an order that the shop re-priced while it was open: it is no longer offered to any
 * page, and if it is paid anyway the shop hears `superseded` with `final` set (paid at the old price), never
 * `paid`; its unpaid states are heard as `superseded` too, not final, and are nothing to refund. It ends as
 * `expired` or `failed` when the service says so. The shopper's page treats it as final; the proxy keeps following
 * it until the service's state is final, so that a payment made anyway is found and announced.
 */
export function supersededOutcome(outcome: Outcome): Outcome {
  return outcome === 'expired' || outcome === 'failed' ? outcome : 'superseded';
}

/** The payin states the provider documents. Any other string may still arrive and is handled as unknown. */
export const KNOWN_STATES = ['created', 'pending', 'in_check', 'dispute', 'finished', 'canceled', 'expired', 'failed'] as const;

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

/**
 * The service's word for money received (`finished`), whatever the proxy made of it: `paid`, `underpaid`, or a
 * `superseded` payment paid anyway at its old price. A shopper whose payment is in such a state is never offered
 * a new one.
 */
export function isPaidState(state: string): boolean {
  return outcomeOf(state) === 'paid';
}

/** A final state never changes again: paid (or underpaid), expired or failed. A superseded payment is final for a page. */
export function isFinalState(state: string): boolean {
  return isFinalOutcome(outcomeOf(state));
}

export function isFinalOutcome(outcome: Outcome): boolean {
  return outcome === 'paid' || outcome === 'underpaid' || outcome === 'superseded' || outcome === 'expired' || outcome === 'failed';
}

/** A sum of money: a 2-decimal string and a 3-letter currency code. */
export interface Money {
  amount: string;
  currency: string;
}

/**
 * The outcome of a state given what was paid and what the shop priced: `paid` only when the paid amount covers the
 * price in the price's currency, `underpaid` when it does not. Any other state maps as `outcomeOf` does.
 */
export function settledOutcome(state: string, paid: Money, priced: Money): Outcome {
  const outcome = outcomeOf(state);
  if (outcome !== 'paid') return outcome;
  const paidAmount = normalizeAmount(paid.amount);
  const pricedAmount = normalizeAmount(priced.amount);
  // An amount that cannot be read covers nothing, nor does one in another currency (499 roubles are not 499
  // rupees, and the proxy has no rate to convert at): never a wrong "paid".
  if (paidAmount === undefined || pricedAmount === undefined) return 'underpaid';
  if (paid.currency.toUpperCase() !== priced.currency.toUpperCase()) return 'underpaid';
  return toMinorUnits(paidAmount) >= toMinorUnits(pricedAmount) ? 'paid' : 'underpaid';
}

/**
 * How far along a state is, so that an older state never overwrites a newer one (callbacks may arrive late or
 * out of order). Final states rank highest; an unknown state ranks with the checking ones.
 */
export function stateRank(state: string): number {
  const outcome = outcomeOf(state);
  return outcome === 'waiting' ? (state === 'created' ? 0 : 1) : outcome === 'checking' ? 2 : 3;
}
