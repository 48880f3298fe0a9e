/**
 * Which state may follow which, in one table, so that the lifecycle, the control API and the console agree.
 * `created` turns `pending` by itself once requisites are assigned; the payer's and operator's actions do the
 * rest. Only `created` and `pending` expire on their own at `expired_at`: once the payer says "I paid"
 * (`in_check`) or a dispute is open, the outcome waits for a decision, although the operator may still `expire`
 * it. A final state (finished, canceled, expired, failed) never changes again.
 */
import type { PaymentState } from './payment-store.js';

/** The actions of POST /sandbox/payments/{id}/{action}, and the state each one leads to. */
export const ACTIONS = {
  pay: 'finished',
  'in-check': 'in_check',
  dispute: 'dispute',
  cancel: 'canceled',
  fail: 'failed',
  expire: 'expired',
} as const satisfies Record<string, PaymentState>;

export type SandboxAction = keyof typeof ACTIONS;

export function isAction(value: string): value is SandboxAction {
  return Object.hasOwn(ACTIONS, value);
}

const NEXT: Record<PaymentState, readonly PaymentState[]> = {
  created: ['pending', 'finished', 'canceled', 'failed', 'expired'],
  pending: ['in_check', 'dispute', 'finished', 'canceled', 'failed', 'expired'],
  in_check: ['dispute', 'finished', 'canceled', 'failed', 'expired'],
  dispute: ['finished', 'canceled', 'failed', 'expired'],
  finished: [],
  canceled: [],
  expired: [],
  failed: [],
};

export function isFinal(state: PaymentState): boolean {
  return NEXT[state].length === 0;
}

export function canMove(from: PaymentState, to: PaymentState): boolean {
  return NEXT[from].includes(to);
}

/** States that turn `expired` by themselves at `expired_at`. */
export function expiresByItself(state: PaymentState): boolean {
  return state === 'created' || state === 'pending';
}

/** Why a move is refused, for a 409 that tells the caller what would work instead. */
export function refusal(from: PaymentState, to: PaymentState): string {
  if (isFinal(from)) return `the payment is already ${from}, a final state that never changes`;
  const allowed = NEXT[from].filter((s) => s !== 'pending');
  return `a ${from} payment cannot become ${to}; it can become ${allowed.join(', ')}`;
}
