/**
 * Creating the payment at the service, once. The body holds the shop's price, the configured merchant and
 * callback URL and the shop's return URL when it gives one, nothing from the browser but the order id and the
 * method; it is checked against the strict request schema before it leaves. When the create ends without an answer (timeout, dropped connection, a 5xx or
 * a garbled answer) the payment may exist all the same, so the order is looked up at the service before
 * anything else; a create is never repeated blindly. An envelope answer lacks the expiry: one status call fills it.
 */
import { isFinalState } from '../shared/outcome.js';
import { createPaymentRequestSchema, describeIssues, type CreateAnswer } from '../shared/provider-messages.js';
import type { ProxyContext } from './context.js';
import { describe } from './errors.js';
import { newestPayment } from './ledger.js';
import { isIncomplete, type CreateContext, type ObservedPayment } from './payment-view-mapper.js';
import type { ProviderPayment } from '../shared/provider-payment.js';
import type { OrderRecord, PaymentRecord } from './store.js';
import { UpstreamError } from './upstream-client.js';

/** Creates (or, after an uncertain attempt, finds) the order's new payment and stores it. Call with the lease held. */
export async function createUpstreamPayment(ctx: ProxyContext, order: CreateContext): Promise<PaymentRecord> {
  const { options, upstream, ledger } = ctx;
  const { store, provider, logger } = options;
  const orderRecord: OrderRecord = (await store.getOrder(order.orderId)) ?? { orderId: order.orderId, payments: [] };
  const known = new Set(orderRecord.payments.map((p) => p.id));

  let answer: CreateAnswer | undefined;
  if (orderRecord.uncertain) {
    // The last create ended without an answer: without a clear "not there" from the service, do not create again.
    const found = await lookUpByOrder(ctx, order, known, { mustAnswer: true });
    if (found) answer = { payment: found, incomplete: isIncompleteAnswer(found) };
  }
  if (!answer) {
    const back = options.returnUrl?.({ orderId: order.orderId, method: order.method });
    const checked = createPaymentRequestSchema.safeParse({
      amount: order.amount,
      orderId: order.orderId,
      currency: order.currency,
      method: order.method,
      merchantId: provider.merchantId,
      callbackUri: options.callbackUrl,
      ...(back && { successUri: back, failUri: back }),
    });
    if (!checked.success) throw new Error(`the create request would be invalid: ${describeIssues(checked.error)}`);
    try {
      answer = await upstream.createPayment(checked.data);
    } catch (error) {
      if (!(error instanceof UpstreamError) || !error.outcomeUnknown) throw error;
      logger.warn('a create ended without an answer; looking the order up', { orderId: order.orderId, error: describe(error) });
      const found = await lookUpByOrder(ctx, order, known);
      if (!found) {
        await ledger.markUncertain(orderRecord);
        throw error;
      }
      answer = { payment: found, incomplete: isIncompleteAnswer(found) };
    }
  }

  const record = await ledger.recordCreated(order, answer, orderRecord);
  if (!answer.incomplete && !isIncomplete(record.view)) return record;
  await ledger.refresh(record.view.id, 'create');
  return (await store.getPayment(record.view.id)) ?? record;
}

/** A payment of this order, for this method, that this proxy does not know yet and that is still open. */
export async function lookUpByOrder(
  ctx: ProxyContext,
  order: CreateContext,
  known: ReadonlySet<string>,
  { mustAnswer = false } = {},
): Promise<ObservedPayment | undefined> {
  let list: ProviderPayment[];
  try {
    list = await ctx.upstream.status({ orderId: order.orderId });
  } catch (error) {
    const notThere = error instanceof UpstreamError && !error.retryable;
    if (mustAnswer && !notThere) throw error;
    if (!notThere)
      ctx.options.logger.warn('looking the order up at the service failed', { orderId: order.orderId, error: describe(error) });
    return undefined;
  }
  const candidates = list.filter(
    (p) =>
      !known.has(p.id) &&
      (p.orderId === undefined || p.orderId === order.orderId) &&
      (p.method === undefined || p.method === order.method) &&
      !isFinalState(p.state),
  );
  return newestPayment(candidates);
}

function isIncompleteAnswer(p: ObservedPayment): boolean {
  return !p.created_at || !p.expired_at;
}
