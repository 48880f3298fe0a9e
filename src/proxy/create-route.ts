/**
 * POST {basePath}/payments: `{orderId, method}` in, `{payment, token}` out. The shop prices the order; the
 * upstream body is built from that answer and the configuration alone. One order is handled by one create at a
 * time (a queue in this process, the store's claim across processes), and whoever comes second finds the first
 * one's payment: double clicks, reloads and two tabs share one pending payment instead of paying twice. An order
 * the store does not know (a restart, another deployment) is looked up at the service before a payment is
 * created for it, and a paid order is refused for good.
 */
import { randomToken } from '../shared/bytes.js';
import { normalizeAmount, isPositiveAmount } from '../shared/money.js';
import { orderIdProblem } from '../shared/order-id.js';
import { sleep } from '../shared/clock.js';
import { asFetchRequest, type Answer, type PlainRequest } from '../server/plain-exchange.js';
import type { ProxyContext } from './context.js';
import { createUpstreamPayment } from './create-upstream.js';
import { describe, jsonAnswer, ProxyError } from './errors.js';
import { readJsonFields, requireText } from './json-body.js';
import { orderLease } from './ledger.js';
import { isIncomplete, toPaymentView, type CreateContext } from './payment-view-mapper.js';
import { enforceRate } from './rate-limit.js';
import type { ProviderPayment } from '../shared/provider-payment.js';
import type { PaymentRecord } from './store.js';
import { UpstreamError } from './upstream-client.js';

const CLAIM_POLL_MS = 100;
const MAX_ORDER_TOKEN_CHARS = 4096;

export async function handleCreate(request: PlainRequest, ctx: ProxyContext): Promise<Answer> {
  const { options } = ctx;
  const body = await readJsonFields(request, options.limits.bodyBytes, ['orderId', 'method', 'orderToken'] as const);
  const orderId = exactOrderId(body.orderId);
  await enforceRate(options, request, 'create', `order:${orderId}`);
  const method = requireText(body.method, 'method', 32);
  if (!options.methods.includes(method)) {
    throw new ProxyError('bad_request', `method must be one of: ${options.methods.join(', ')}`);
  }
  const orderToken = body.orderToken === undefined ? undefined : requireText(body.orderToken, 'orderToken', MAX_ORDER_TOKEN_CHARS);
  const priced = await options.resolveOrder(orderId, method, asFetchRequest(request), orderToken === undefined ? {} : { orderToken });
  if (!priced) throw new ProxyError('not_found', 'no such order, or it cannot be paid from here');
  const amount = normalizeAmount(priced.amount);
  if (amount === undefined || !isPositiveAmount(amount) || !/^[A-Z]{3}$/.test(String(priced.currency))) {
    throw new Error(
      `resolveOrder returned an invalid price for order ${orderId}: amount must be positive with at most 2 decimals, currency a 3-letter code`,
    );
  }
  const order: CreateContext = { orderId, method, amount, currency: priced.currency };
  return ctx.orderQueue.run(orderId, () => createOrReuse(ctx, order));
}

/** The order id exactly as the browser sent it, or a 400 naming why it cannot be sent to the service as is. */
function exactOrderId(value: unknown): string {
  if (typeof value !== 'string') throw new ProxyError('bad_request', 'orderId is required and must be a string');
  const problem = orderIdProblem(value);
  if (problem) throw new ProxyError('bad_request', `orderId ${problem}: send the order id exactly as the shop prices it`);
  return value;
}

async function createOrReuse(ctx: ProxyContext, order: CreateContext): Promise<Answer> {
  const { store, clock, timeouts } = ctx.options;
  const owner = randomToken(12);
  const lease = orderLease(order.orderId);
  const giveUpAt = clock.now() + Math.min(timeouts.claimLeaseMs, timeouts.createMs + 2 * timeouts.statusDeadlineMs + 5_000);
  for (let round = 0; ; round++) {
    const existing = await existingPayment(ctx, order);
    if (existing) return answer(ctx, existing, 200);
    if (await store.claim(lease, owner, timeouts.claimLeaseMs)) break;
    if (clock.now() >= giveUpAt || round >= 1_000) {
      throw new ProxyError('upstream_timeout', 'another request is still creating a payment for this order; try again');
    }
    await sleep(clock, CLAIM_POLL_MS);
  }
  try {
    if (!(await store.getOrder(order.orderId))) await adoptFromService(ctx, order);
    // Another instance may have finished between our look and our claim.
    const existing = await existingPayment(ctx, order);
    if (existing) return answer(ctx, existing, 200);
    const record = await createUpstreamPayment(ctx, order);
    return answer(ctx, record, 201);
  } finally {
    await store.release(lease, owner);
  }
}

/**
 * An order this store has never seen may still have payments at the service (the store was emptied by a
 * restart, or it is shared by another deployment): record them before deciding, so that a paid order is refused
 * and a pending payment is handed out again instead of a second one. Call with the order's lease held.
 */
async function adoptFromService(ctx: ProxyContext, order: CreateContext): Promise<void> {
  const { options, upstream, ledger } = ctx;
  let list: ProviderPayment[];
  try {
    list = await upstream.status({ orderId: order.orderId });
  } catch (error) {
    if (error instanceof UpstreamError && !error.retryable) return; // the service knows no such order
    throw error;
  }
  const refs = [];
  for (const payment of list) {
    if (payment.orderId !== order.orderId || !payment.method) continue;
    const record = (await options.store.getPayment(payment.id)) ?? (await ledger.adopt(payment, 'create'));
    if (record) refs.push({ id: record.view.id, method: record.view.method });
  }
  if (refs.length) await ledger.addToOrder(order.orderId, refs);
}

/**
 * The pending payment this request should get again, if any. Throws 409 when the order is paid. Payments of
 * the order that are still open are asked about first, never from a shared older answer, so that a payment paid a
 * moment ago is not missed. An open payment priced differently from what the shop answers now is superseded: the
 * shop re-priced the order, so the old amount must not stay payable as if it settled the order.
 */
async function existingPayment(ctx: ProxyContext, order: CreateContext): Promise<PaymentRecord | undefined> {
  const { store, logger } = ctx.options;
  const stored = await store.getOrder(order.orderId);
  if (stored?.paidBy !== undefined) throw orderPaid();
  const refs = stored?.payments ?? [];
  let candidate: PaymentRecord | undefined;
  for (const [index, ref] of [...refs].reverse().entries()) {
    let record = await store.getPayment(ref.id);
    if (!record) continue;
    if (!record.view.final && index < 5) {
      try {
        await ctx.ledger.refresh(ref.id, 'create', { fresh: true });
        record = (await store.getPayment(ref.id)) ?? record;
      } catch (error) {
        // A stored, complete view is good enough to hand out again; an incomplete one is not.
        if (ref.method === order.method && isIncomplete(record.view)) throw error;
        logger.warn('could not refresh an open payment of an order', { paymentId: ref.id, error: describe(error) });
      }
    }
    if (record.view.outcome === 'paid') throw orderPaid();
    const repriced = normalizeAmount(record.priced.amount) !== order.amount || record.priced.currency !== order.currency;
    if (repriced && !record.view.final && record.view.outcome !== 'superseded') {
      await ctx.ledger.supersede(record.view.id);
      continue;
    }
    const same = ref.method === order.method && record.view.amount === order.amount && record.view.currency === order.currency;
    if (!candidate && same && !record.view.final && record.view.outcome !== 'superseded') candidate = record;
  }
  return candidate;
}

const orderPaid = () => new ProxyError('order_paid', 'this order is already paid');

async function answer(ctx: ProxyContext, record: PaymentRecord, status: 200 | 201): Promise<Answer> {
  const token = await ctx.tokens.issue(record.view.id);
  return jsonAnswer(status, { payment: toPaymentView(record.view, ctx.options.clock.now()), token });
}
