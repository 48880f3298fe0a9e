/**
 * Creating the payment at the service, once. The body holds the shop's price, the configured merchant and
 * callback URL and the shop's return URL when it gives one, nothing from the browser but the order id and the
 * method; it is checked against the strict request schema before it leaves. When the create ends without an
 * answer (timeout, dropped connection, a 5xx or a garbled answer) the payment may exist all the same, so the order
 * is looked up at the service before anything else; a create is never repeated blindly. What it answers is
 * recorded by the ledger (order-payments.ts), which marks the order uncertain before the service is asked and
 * clears the mark once the payment is recorded.
 */
import { isFinalState } from '../../shared/outcome.js';
import { createPaymentRequestSchema, describeIssues, type CreateAnswer } from '../../shared/provider-messages.js';
import { describe } from '../http/errors.js';
import { parseTimestamp } from '../../shared/timestamps.js';
import type { ServiceCreate } from '../ledger/order-payments.js';
import type { OrderRecord } from '../infrastructure/store.js';
import type { ResolvedOptions } from '../resolved-options.js';
import { asksPrice, type CreateContext, type ObservedPayment } from '../ledger/payment-view-mapper.js';
import type { ProviderPayment } from '../../shared/provider-payment.js';
import { UpstreamError, type UpstreamClient } from '../infrastructure/upstream-client.js';

/**
 * Creates (or, after an uncertain attempt, finds) the order's new payment at the service: its answer, or the
 * create's UpstreamError (`outcomeUnknown` when the payment may exist all the same and no look-up found it).
 */
export class ServicePayments implements ServiceCreate {
  constructor(
    private readonly options: ResolvedOptions,
    private readonly upstream: UpstreamClient,
  ) {}

  create(order: CreateContext, orderRecord: OrderRecord): Promise<CreateAnswer> {
    return createUpstreamPayment(this.options, this.upstream, order, orderRecord);
  }
}

async function createUpstreamPayment(
  options: ResolvedOptions,
  upstream: UpstreamClient,
  order: CreateContext,
  orderRecord: OrderRecord,
): Promise<CreateAnswer> {
  const { provider, logger } = options;
  const known = new Set(orderRecord.payments.map((p) => p.id));

  let answer: CreateAnswer | undefined;
  if (orderRecord.uncertain) {
    // The last create was not recorded: without a clear "not there" from the service, do not create again.
    const found = await lookUpByOrder(options, upstream, order, known, { mustAnswer: true });
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
      const found = await lookUpByOrder(options, upstream, order, known);
      if (!found) throw error;
      answer = { payment: found, incomplete: isIncompleteAnswer(found) };
    }
  }
  return answer;
}

/**
 * A payment of this order, for this method and at this price, that this proxy does not know yet and that is
 * still open. One at another price was made before the shop re-priced the order: handed out, it would ask the
 * shopper for the old sum (and paying it would leave the order underpaid, or overpaid), so a new one is made.
 */
async function lookUpByOrder(
  options: ResolvedOptions,
  upstream: UpstreamClient,
  order: CreateContext,
  known: ReadonlySet<string>,
  { mustAnswer = false } = {},
): Promise<ObservedPayment | undefined> {
  let list: ProviderPayment[];
  try {
    list = await upstream.status({ orderId: order.orderId });
  } catch (error) {
    const notThere = error instanceof UpstreamError && !error.retryable;
    if (mustAnswer && !notThere) throw error;
    if (!notThere) options.logger.warn('looking the order up at the service failed', { orderId: order.orderId, error: describe(error) });
    return undefined;
  }
  const candidates = list.filter(
    (p) =>
      !known.has(p.id) &&
      (p.orderId === undefined || p.orderId === order.orderId) &&
      (p.method === undefined || p.method === order.method) &&
      asksPrice(p, order) &&
      !isFinalState(p.state),
  );
  return newestPayment(candidates);
}

function isIncompleteAnswer(p: ObservedPayment): boolean {
  return !p.created_at || !p.expired_at;
}

/** The newest payment of a status answer looked up by order (created_at; the last one when it is missing). */
function newestPayment(list: ProviderPayment[]): ProviderPayment | undefined {
  let best: ProviderPayment | undefined;
  let bestAt = -Infinity;
  for (const p of list) {
    const rank = parseTimestamp(p.created_at) ?? -Infinity;
    if (!best || rank >= bestAt) {
      best = p;
      bestAt = rank;
    }
  }
  return best;
}
