/**
 * Who may read a payment: the holder of the token issued when it was created. Shared by the status and the
 * event-stream routes; the token is checked before the store is read.
 */
import { ProxyError } from '../http/errors.js';
import type { PaymentRecord } from '../infrastructure/store.js';
import { UpstreamError } from '../infrastructure/upstream-client.js';
import type { ProxyContext } from '../context.js';
import { after, type MaybePromise } from '../maybe-async.js';
import type { ProxyRequest } from '../http/exchange.js';
import { rememberSubject } from '../http/request-subject.js';

/**
 * The record of `paymentId` if `token` is the one issued for it. A wrong token and an unknown payment get the
 * same 404, so that guessing ids (they are time-based at the service) tells nothing. Tokens verify without the
 * store: when the token is right but the store does not know the payment (a restart emptied it), the payment is
 * looked up at the service (one call per coalescing window for all its polls, Ledger.lookUp) and recorded again,
 * so the open checkout goes on.
 */
export function readableRecord(ctx: ProxyContext, request: ProxyRequest, paymentId: string, token: string): MaybePromise<PaymentRecord> {
  const { tokens, options } = ctx;
  // At once for a kept token and a store that reads in this process (see maybe-async.ts): a poll's usual case.
  return after(tokens.verify(paymentId, token), (valid) => {
    if (!valid) throw notFound();
    const { store } = options;
    return after(
      store.getPaymentNow ? store.getPaymentNow(paymentId) : store.getPayment(paymentId),
      (record) => record ?? adopted(ctx, request, paymentId),
    );
  });
}

/** The payment looked up at the service and recorded again, for a right token the store knows nothing of. */
async function adopted(ctx: ProxyContext, request: ProxyRequest, paymentId: string): Promise<PaymentRecord> {
  // The token was issued for this id: a service that cannot answer is logged with the payment (request-subject.ts).
  rememberSubject(request, { paymentId });
  let record: PaymentRecord | undefined;
  try {
    record = await ctx.ledger.adopt(await ctx.ledger.lookUp(paymentId), 'status');
  } catch (error) {
    if (error instanceof UpstreamError && !error.retryable) throw notFound();
    throw error;
  }
  if (!record) throw notFound();
  return record;
}

const notFound = () => new ProxyError('not_found', 'no payment with this id and token');
