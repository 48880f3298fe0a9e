/**
 * POST {basePath}/payments: `{orderId, method}` in, `{payment, token}` out. The shop prices the order; the
 * upstream body is built from that answer and the configuration alone. Which payment the request gets (the
 * order's pending one again, a 409 once paid, or a new one) is the ledger's decision under the order's lease
 * (ledger/order-payments.ts); this route reads, checks, prices and answers. A create for a new order goes
 * through these files, each entered once and only forward (`node bench/create-walk.mjs` measures it):
 *
 * 1. create-proxy.ts, the router, picks this route (the HTTP edge adds CORS and the client's address);
 * 2. this route reads the body (http/json-body.ts), counts the create rate (http/rate-limit.ts) and has the shop
 *    price the order (its `resolveOrder`, checked here);
 * 3. ledger/order-payments.ts finds the order's open payment or, under the order's lease
 * 4. (ledger/orders.ts), has a new one made
 * 5. at the service (create-upstream.ts)
 * 6. and recorded by the ledger (ledger/ledger.ts), which completes the record with a status call (the create
 *    answer has no expiry), merges what the service said (7. ledger/payment-view-mapper.ts) where the
 *    transition table lets it (8. ledger/transitions.ts), and announces it (9. ledger/outbox.ts);
 * then this route issues the token (http/payment-token.ts) and writes the answer (http/payment-answer.ts).
 */
import { chargeablePrice, unchargeableNote } from '../../shared/money.js';
import { orderIdProblem } from '../../shared/order-id.js';
import type { ProxyContext } from '../context.js';
import { jsonAnswer, ProxyError } from '../http/errors.js';
import { asFetchRequest, type Answer, type ProxyRequest } from '../http/exchange.js';
import { readJsonFields, requireText } from '../http/json-body.js';
import { enforceRate } from '../http/rate-limit.js';
import { toPaymentView } from '../http/payment-answer.js';
import type { CreateContext } from '../ledger/payment-view-mapper.js';
import { withQrMatrix } from '../http/qr-matrix-answer.js';
import { rememberSubject } from '../http/request-subject.js';

const MAX_ORDER_TOKEN_CHARS = 4096;

export async function handleCreate(request: ProxyRequest, ctx: ProxyContext): Promise<Answer> {
  const { options } = ctx;
  const body = await readJsonFields(request, options.limits.bodyBytes, ['orderId', 'method', 'orderToken'] as const);
  const orderId = exactOrderId(body.orderId);
  await enforceRate(options, request, 'create', `order:${orderId}`);
  const order = await priced(request, ctx, orderId, body);
  // The shop priced it, so it is the shop's order: a 5xx from here on names it in the log (request-subject.ts).
  rememberSubject(request, { orderId });
  const { record, created } = await ctx.orderPayments.paymentFor(order);
  const token = await ctx.tokens.issue(record.view.id);
  return jsonAnswer(created ? 201 : 200, { payment: withQrMatrix(toPaymentView(record.view, options.serviceClock.now())), token });
}

/** The order id exactly as the browser sent it, or a 400 naming why it cannot be sent to the service as is. */
function exactOrderId(value: unknown): string {
  if (typeof value !== 'string') throw new ProxyError('bad_request', 'orderId is required and must be a string');
  const problem = orderIdProblem(value);
  if (problem) throw new ProxyError('bad_request', `orderId ${problem}: send the order id exactly as the shop prices it`);
  return value;
}

/** The order as the shop prices it: 404 when it does not know it, a thrown Error when its answer is invalid. */
async function priced(
  request: ProxyRequest,
  ctx: ProxyContext,
  orderId: string,
  body: { method?: unknown; orderToken?: unknown },
): Promise<CreateContext> {
  const { options } = ctx;
  const method = requireText(body.method, 'method', 32);
  if (!options.methods.includes(method)) {
    throw new ProxyError('bad_request', `method must be one of: ${options.methods.join(', ')}`);
  }
  const orderToken = body.orderToken === undefined ? undefined : requireText(body.orderToken, 'orderToken', MAX_ORDER_TOKEN_CHARS);
  const fetchRequest = asFetchRequest(request);
  const ask = async (by: string) => {
    const price = await options.resolveOrder(orderId, by, fetchRequest, orderToken === undefined ? {} : { orderToken });
    return price ? checkedPrice(orderId, price) : null;
  };
  const price = await ask(method);
  if (!price) throw new ProxyError('not_found', 'no such order, or it cannot be paid from here');
  // An open payment of another method is judged by that method's own price (a shop may price UPI in rupees and
  // SBP in roubles): asked only when the order has one, once per method.
  const asked = new Map<string, ReturnType<typeof ask>>();
  const priceOf = (other: string) => {
    if (!asked.has(other)) asked.set(other, ask(other));
    return asked.get(other)!;
  };
  return { orderId, method, ...price, priceOf };
}

/** The shop's price, normalised; a thrown Error (a bug in the shop's resolveOrder) when it is no price. */
function checkedPrice(orderId: string, price: { amount: unknown; currency: unknown }): { amount: string; currency: string } {
  const chargeable = chargeablePrice(price);
  if (!chargeable) {
    throw new Error(`resolveOrder returned an invalid price for order ${orderId}: ${unchargeableNote(price)}`);
  }
  return chargeable;
}
