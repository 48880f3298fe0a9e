/**
 * From what the service says about a payment to what the browser may see. Whether an observation may replace
 * the stored view at all is the ledger's transition table (transitions.ts); this module merges one that may.
 * Fields the answer lacks keep their earlier value: the status answer has no hosted-page url, a callback may leave
 * out requisites. userId, commission, rate and merchantId never get in. `supersede` marks an open payment of a
 * re-priced order (see outcome.ts). Only the ledger calls it; what the browser reads of a view is written at the
 * HTTP edge (http/payment-answer.ts).
 */
import { isFinalOutcome, type Money, outcomeOf, settledOutcome, supersededOutcome } from '../../shared/outcome.js';
import type { Requisites } from '../../shared/payment-view.js';
import type { ProviderPayment } from '../../shared/provider-payment.js';
import { isMisleading } from '../../shared/misleading-text.js';
import { normalizeAmount } from '../../shared/money.js';
import { qrPayload, webUrl } from '../../shared/qr-payload.js';
import { parseTimestamp, toIso } from '../../shared/timestamps.js';
import type { StoredView } from '../infrastructure/store.js';

/** A Payment as far as one answer told it; only id and state are sure to be there. */
export type ObservedPayment = Partial<ProviderPayment> & Pick<ProviderPayment, 'id' | 'state'>;

/** What the proxy knew before the service said anything: the shop's price and the browser's choice. */
export interface CreateContext {
  orderId: string;
  method: string;
  amount: string;
  currency: string;
  /**
   * The shop's price of this order by another method, asked now (its resolveOrder, once per method and request):
   * null when the shop does not price the order that way. Judges an open payment of that method. Without it, a
   * payment of another method is judged by this method's price.
   */
  priceOf?: (method: string) => Promise<{ amount: string; currency: string } | null>;
}

/** Fields of the service's Payment that are mapped (or deliberately dropped); the rest may carry an SBP link. */
const KNOWN_FIELDS = new Set([
  'id',
  'orderId',
  'datetime',
  'created_at',
  'expired_at',
  'status',
  'type',
  'userId',
  'amount',
  'init_amount',
  'amount_commission_less',
  'currency',
  'rate',
  'commission',
  'method',
  'requisites',
  'merchantId',
]);

/**
 * The view after this observation, or `previous` itself (same object) when the observation changes nothing
 * the browser could see. Call it only for an observation the transition table lets follow `previous`. `payUrl` is the hosted page from a create answer, when it had one. `priced` is
 * what the shop's resolveOrder asked for: a finished payment is `paid` only when what was paid covers it.
 */
export function mergeObservation(
  previous: StoredView | undefined,
  observed: ObservedPayment,
  context?: CreateContext,
  payUrl?: string,
  priced?: Money,
): StoredView {
  const base = previous ?? context;
  if (!base) throw new Error('mergeObservation needs a stored view or a create context');
  const paid = outcomeOf(observed.state) === 'paid';
  // Before payment `amount` is what the payer is asked for; once paid it is what was paid (the service may
  // recalculate), and the sum asked for moves to initAmount when the two differ.
  const asked = observed.init_amount ?? (paid ? undefined : observed.amount) ?? previous?.amount ?? context!.amount;
  const amount = paid ? (observed.amount ?? asked) : asked;
  const currency = observed.currency ?? base.currency;
  const settled = settledOutcome(observed.state, { amount, currency }, priced ?? context ?? { amount: asked, currency: base.currency });
  // A superseded payment stays superseded (see outcome.ts), and is final when the service's state is.
  const outcome = previous?.outcome === 'superseded' ? supersededOutcome(settled) : settled;
  const view: StoredView = {
    id: observed.id,
    orderId: observed.orderId ?? base.orderId,
    method: observed.method ?? base.method,
    state: observed.state,
    outcome,
    final: isFinalOutcome(settled),
    amount,
    currency,
  };
  if (paid && asked !== amount) view.initAmount = asked;
  const createdAt = isoOf(observed.created_at) ?? previous?.createdAt;
  const expiresAt = isoOf(observed.expired_at) ?? previous?.expiresAt;
  if (createdAt) view.createdAt = createdAt;
  if (expiresAt) view.expiresAt = expiresAt;
  const requisites = requisitesOf(observed.requisites) ?? previous?.requisites;
  if (requisites) view.requisites = requisites;
  const url = webUrl(payUrl) ?? webUrl((observed as Record<string, unknown>).url) ?? previous?.payUrl;
  if (url) view.payUrl = url;
  const extra = [
    observed.media,
    ...Object.entries(observed)
      .filter(([key]) => !KNOWN_FIELDS.has(key))
      .map(([, v]) => v),
  ];
  const qr =
    qrPayload({
      method: view.method,
      amount: view.amount,
      currency: view.currency,
      orderId: view.orderId,
      requisites,
      payUrl: url,
      extra,
    }) ?? previous?.qr;
  if (qr) view.qr = qr;
  return previous && sameView(previous, view) ? previous : view;
}

/**
 * True for a `finished` answer whose `status` flag is false: the service's paid is `finished` with `status: true`,
 * so this one has not said paid. It is not merged (a later answer with the flag set is), so that it can neither
 * ship goods nor make a paid payment final as something else. An answer that leaves the flag out is believed.
 */
export function unconfirmedFinish(observed: ObservedPayment): boolean {
  return outcomeOf(observed.state) === 'paid' && observed.status === false;
}

/** True when `observed` says paid and means it: a paid state that is not an unconfirmed finish. */
export function confirmsPaid(observed: ObservedPayment): boolean {
  return outcomeOf(observed.state) === 'paid' && !unconfirmedFinish(observed);
}

/**
 * False when `p` names an amount or currency other than `price`; an answer that leaves them out may be it. Amount
 * and currency come only from resolveOrder (docs/security.md), and the sum of the view is what the widget asks
 * for and writes into the UPI link: a create answer naming another sum is refused, a later answer about an open
 * payment is not believed about it, and a look-up by order hands out no payment made at another price. Once paid,
 * the sum is what was paid, which the outcome judges instead (shared/outcome.ts).
 */
export function asksPrice(p: Pick<ObservedPayment, 'amount' | 'init_amount' | 'currency'>, price: Money): boolean {
  const asked = p.init_amount ?? p.amount;
  if (asked !== undefined && normalizeAmount(asked) !== price.amount) return false;
  return p.currency === undefined || p.currency === price.currency;
}

/** The view of an open payment whose order the shop re-priced; undefined when there is nothing to change. */
export function supersede(view: StoredView): StoredView | undefined {
  if (view.final || view.outcome === 'superseded') return undefined;
  return { ...view, outcome: 'superseded' };
}

function isoOf(value: unknown): string | undefined {
  const ms = parseTimestamp(value);
  return ms === undefined ? undefined : toIso(ms);
}

/**
 * The requisites as the shopper may be shown them: what they read must be what they pay. A VPA, a phone number
 * and a card number are written in printable ASCII (spaces between groups allowed), so an address with any other
 * character (a zero-width space, a Cyrillic o, a full-width digit, a direction override) is not shown at all, nor
 * encoded in a QR: it would read as one payee and pay another. A recipient or bank name may be in any script, but
 * one holding a control, bidirectional or invisible character, or too long to be a name, is left out.
 */
function requisitesOf(value: ProviderPayment['requisites']): Requisites | undefined {
  // Spaces or a line break around it are no part of the address (nor another payee): left out, as the shopper reads it.
  const address = typeof value?.address === 'string' ? value.address.trim() : undefined;
  if (!value || address === undefined || !PLAIN_ADDRESS.test(address)) return undefined;
  const out: Requisites = { address };
  if (isShownName(value.recipient)) out.recipient = value.recipient;
  if (isShownName(value.bank)) out.bank = value.bank;
  return out;
}

/** Printable ASCII words separated by single spaces, at most 255 characters (a VPA's own limit). */
const PLAIN_ADDRESS = /^(?=.{1,255}$)[\x21-\x7e]+(?: [\x21-\x7e]+)*$/;

/** Longer than any payee's or bank's name: a page of text would push the sum and the address off the screen. */
const MAX_NAME_LENGTH = 200;

function isShownName(value: unknown): value is string {
  return typeof value === 'string' && value.trim() !== '' && value.length <= MAX_NAME_LENGTH && !isMisleading(value);
}

function sameView(a: StoredView, b: StoredView): boolean {
  return canonical(a) === canonical(b);
}

/** JSON with sorted keys at every level, so that field order never counts as a change. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value && typeof value === 'object') {
    const entries = Object.entries(value)
      .filter(([, v]) => v !== undefined)
      .sort(([x], [y]) => (x < y ? -1 : 1));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonical(v)}`).join(',')}}`;
  }
  return JSON.stringify(value);
}
