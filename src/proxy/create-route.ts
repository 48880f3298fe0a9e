/**
 * POST {basePath}/payments: `{orderId, method}` in, `{payment, token}` out. The shop prices the order; the
 * upstream body is built from that answer and the configuration alone. One order is handled by one create at a
 * time (a queue in this process, the store's claim across processes), and whoever comes second finds the first
 * one's payment: double clicks, reloads and two tabs share one pending payment instead of paying twice.
 */
import { randomToken } from '../shared/bytes.js';
import { normalizeAmount, isPositiveAmount } from '../shared/money.js';
import { sleep } from '../server/clock.js';
import type { ProxyContext } from './context.js';
import { jsonResponse, ProxyError } from './errors.js';
import { readJsonFields, requireText } from './json-body.js';
import { isIncomplete, toPaymentView, type CreateContext } from './payment-view-mapper.js';
import { enforceRate } from './rate-limit.js';
import { createUpstreamPayment } from './create-upstream.js';
import type { PaymentRecord } from './store.js';

const CLAIM_POLL_MS = 100;

export async function handleCreate(request: Request, ctx: ProxyContext): Promise<Response> {
  const { options } = ctx;
  await enforceRate(options, request, 'create');
  const body = await readJsonFields(request, options.limits.bodyBytes, ['orderId', 'method'] as const);
  const orderId = requireText(body.orderId, 'orderId');
  const method = requireText(body.method, 'method', 32);
  if (!options.methods.includes(method)) {
    throw new ProxyError('bad_request', `method must be one of: ${options.methods.join(', ')}`);
  }
  const priced = await options.resolveOrder(orderId, method, request);
  if (!priced) throw new ProxyError('not_found', 'no such order, or it cannot be paid from here');
  const amount = normalizeAmount(priced.amount);
  if (amount === undefined || !isPositiveAmount(amount) || !/^[A-Z]{3}$/.test(String(priced.currency))) {
    throw new Error(`resolveOrder returned an invalid price for order ${orderId}: amount must be positive with at most 2 decimals, currency a 3-letter code`);
  }
  const order: CreateContext = { orderId, method, amount, currency: priced.currency };
  return ctx.orderQueue.run(orderId, () => createOrReuse(ctx, order));
}

async function createOrReuse(ctx: ProxyContext, order: CreateContext): Promise<Response> {
  const { store, clock, timeouts } = ctx.options;
  const owner = randomToken(12);
  const giveUpAt = clock.now() + Math.min(timeouts.claimLeaseMs, timeouts.createMs + 2 * timeouts.statusDeadlineMs + 5_000);
  for (let round = 0; ; round++) {
    const existing = await existingPayment(ctx, order);
    if (existing) return answer(ctx, existing, 200);
    if (await store.claimOrder(order.orderId, owner, timeouts.claimLeaseMs)) break;
    if (clock.now() >= giveUpAt || round >= 1_000) {
      throw new ProxyError('upstream_timeout', 'another request is still creating a payment for this order; try again');
    }
    await sleep(clock, CLAIM_POLL_MS);
  }
  try {
    // Another instance may have finished between our look and our claim.
    const existing = await existingPayment(ctx, order);
    if (existing) return answer(ctx, existing, 200);
    const record = await createUpstreamPayment(ctx, order);
    return answer(ctx, record, 201);
  } finally {
    await store.releaseOrder(order.orderId, owner);
  }
}

/**
 * The pending payment this request should get again, if any. Throws 409 when the order is paid. Payments of
 * the order that are still open are refreshed first, so that a payment paid a moment ago is not missed.
 */
async function existingPayment(ctx: ProxyContext, order: CreateContext): Promise<PaymentRecord | undefined> {
  const { store, logger } = ctx.options;
  const refs = (await store.getOrder(order.orderId))?.payments ?? [];
  let candidate: PaymentRecord | undefined;
  for (const [index, ref] of [...refs].reverse().entries()) {
    let record = await store.getPayment(ref.id);
    if (!record) continue;
    if (!record.view.final && index < 5) {
      try {
        await ctx.updates.refresh(ref.id, 'create');
        record = (await store.getPayment(ref.id)) ?? record;
      } catch (error) {
        // A stored, complete view is good enough to hand out again; an incomplete one is not.
        if (ref.method === order.method && isIncomplete(record.view)) throw error;
        logger.warn('could not refresh an open payment of an order', { paymentId: ref.id });
      }
    }
    if (record.view.outcome === 'paid') throw new ProxyError('order_paid', 'this order is already paid');
    const same = ref.method === order.method && record.view.amount === order.amount && record.view.currency === order.currency;
    if (!candidate && same && !record.view.final) candidate = record;
  }
  return candidate;
}

function answer(ctx: ProxyContext, record: PaymentRecord, status: 200 | 201): Response {
  return jsonResponse(status, { payment: toPaymentView(record.view, ctx.options.clock.now()), token: record.token });
}
