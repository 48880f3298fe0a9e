/**
 * The payment as the browser may see it, and no more: what the proxy answers and streams, and what the widget
 * renders. Never userId, commission, rate, merchantId or anything secret. This file has no zod on purpose: the
 * widget imports it, and a schema library would cost the script-tag build more bytes than the check it buys.
 */
import { isFinalOutcome, outcomeOf, supersededOutcome, type Outcome } from './outcome.js';
import { isQrModules, type QrModules } from './qr-modules.js';

export type PaymentMethod = string;

export interface Requisites {
  /** A UPI VPA, a phone number (sbp) or a card number (c2c), as the service gives it. */
  address: string;
  recipient?: string;
  bank?: string;
}

export interface PaymentView {
  id: string;
  orderId: string;
  method: PaymentMethod;
  /** The service's own word for the state. */
  state: string;
  outcome: Outcome;
  final: boolean;
  /** A 2-decimal string; once paid, what was actually paid. */
  amount: string;
  /** Only when it differs from `amount` (the service recalculated the sum). */
  initAmount?: string;
  currency: string;
  createdAt: string;
  expiresAt: string;
  /** The proxy's clock when it answered, so that the widget can correct a wrong client clock. */
  serverTime: string;
  requisites?: Requisites;
  /** The text to encode in the QR (a upi:// link, an SBP link, or the hosted payment page). */
  qr?: string;
  /**
   * The module matrix of `qr`, encoded by the proxy when it answers (never stored), so that the browser only draws
   * it (qr-modules.ts has the form). `null` when no QR can hold `qr`: the widget shows the requisites without
   * trying to encode it. Without it, or when it is garbled, the widget encodes `qr` itself.
   */
  qrMatrix?: QrModules | null;
  /** The service's hosted payment page. */
  payUrl?: string;
}

/** Answer of `POST {basePath}/payments`. */
export interface CreatePaymentAnswer {
  payment: PaymentView;
  token: string;
}

/** Answer of `POST {basePath}/status`. */
export interface StatusAnswer {
  payment: PaymentView;
}

const STRING_FIELDS = ['id', 'orderId', 'method', 'state', 'amount', 'currency', 'createdAt', 'expiresAt', 'serverTime'];

/**
 * Copies the string members `keys` of `from` into `to`; answers false when one is not a string and `required`.
 * A primitive or null `from` has no members.
 */
function copyStrings(from: unknown, to: Record<string, unknown>, keys: string[], required?: boolean): boolean {
  const v = Object(from) as Record<string, unknown>;
  for (const key of keys) {
    if (typeof v[key] === 'string') to[key] = v[key];
    else if (required) return false;
  }
  return true;
}

/**
 * A structural check of what came over the wire, for the browser. It does not trust `outcome` or `final` from
 * the answer: both are derived again from `state` (an `underpaid` is kept), so a confused proxy can never make
 * the widget say "paid".
 */
export function readPaymentView(value: unknown): PaymentView | undefined {
  const view = {} as PaymentView;
  if (!copyStrings(value, view as never, STRING_FIELDS, true)) return undefined;
  copyStrings(value, view as never, ['initAmount', 'qr', 'payUrl']);
  const matrix = (value as { qrMatrix?: unknown }).qrMatrix;
  if (view.qr && (matrix === null || isQrModules(matrix))) view.qrMatrix = matrix;
  // The two outcomes taken from the answer, which only the proxy can know: a finished payment short of its price
  // (`underpaid`), and a payment of a re-priced order (`superseded`). Neither can ever turn into a "paid".
  const derived = outcomeOf(view.state);
  const said = (value as { outcome?: unknown }).outcome;
  view.outcome = said === 'superseded' ? supersededOutcome(derived) : derived === 'paid' && said === 'underpaid' ? 'underpaid' : derived;
  view.final = isFinalOutcome(view.outcome);
  const requisites = {} as Requisites;
  const r = (value as { requisites?: unknown }).requisites;
  if (copyStrings(r, requisites as never, ['address'], true)) {
    copyStrings(r, requisites as never, ['recipient', 'bank']);
    view.requisites = requisites;
  }
  return view;
}
