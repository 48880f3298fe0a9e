/**
 * The payment as the browser may see it, and no more: what the proxy answers and streams, and what the widget
 * renders. Never userId, commission, rate, merchantId or anything secret. This file has no zod on purpose: the
 * widget imports it, and a schema library would cost the script-tag build more bytes than the check it buys.
 */
import { isFinalOutcome, outcomeOf, type Outcome } from './outcome.js';

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

const STRING_FIELDS = ['id', 'orderId', 'method', 'state', 'amount', 'currency', 'createdAt', 'expiresAt', 'serverTime'] as const;
const OPTIONAL_FIELDS = ['initAmount', 'qr', 'payUrl'] as const;

/**
 * A structural check of what came over the wire, for the browser. It does not trust `outcome` or `final` from
 * the answer: both are derived again from `state` (an `underpaid` is kept), so a confused proxy can never make
 * the widget say "paid".
 */
export function readPaymentView(value: unknown): PaymentView | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const v = value as Record<string, unknown>;
  for (const key of STRING_FIELDS) if (typeof v[key] !== 'string') return undefined;
  // The one outcome taken from the answer: a finished payment the proxy found short of its price. It can only
  // turn a "paid" into an "underpaid", never the other way.
  const derived = outcomeOf(v.state as string);
  const outcome = derived === 'paid' && v.outcome === 'underpaid' ? 'underpaid' : derived;
  const view = { outcome, final: isFinalOutcome(outcome) } as PaymentView;
  for (const key of STRING_FIELDS) view[key] = v[key] as string;
  for (const key of OPTIONAL_FIELDS) if (typeof v[key] === 'string') view[key] = v[key];
  const r = v.requisites as Record<string, unknown> | undefined;
  if (r && typeof r === 'object' && typeof r.address === 'string') {
    view.requisites = { address: r.address };
    if (typeof r.recipient === 'string') view.requisites.recipient = r.recipient;
    if (typeof r.bank === 'string') view.requisites.bank = r.bank;
  }
  return view;
}
