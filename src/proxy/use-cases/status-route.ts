/**
 * POST {basePath}/status: `{paymentId, token}` in, `{payment}` out. The token is checked before anything else
 * and a wrong one reads like an unknown payment. A final payment is answered from the store; an open one is
 * refreshed from the service through the coalescer, so that many pollers of one payment cost one upstream call,
 * and while the service is down one failed call per window (Ledger.refresh), each poll answered its 502 or 504.
 * An open payment of an order that another payment has paid is answered 409 order_paid (see paidByAnother), which
 * the widget shows as the order paid.
 */
import type { Answer, ProxyRequest } from '../http/exchange.js';
import type { ProxyContext } from '../context.js';
import { readableRecord } from './readable-payment.js';
import { jsonTextAnswer, ProxyError } from '../http/errors.js';
import { readJsonFields, requireText } from '../http/json-body.js';
import { isIncomplete, paymentAnswerJson } from '../http/payment-answer.js';
import { after, type MaybePromise } from '../maybe-async.js';
import { enforceRate } from '../http/rate-limit.js';
import type { PaymentRecord } from '../infrastructure/store.js';
import { qrMatrixJson } from '../http/qr-matrix-answer.js';
import { PAID_BY_ANOTHER, paidByAnother } from '../ledger/orders.js';
import { rememberSubject } from '../http/request-subject.js';

const FIELDS = ['paymentId', 'token'] as const;

/** Answered without a wait when every step has its value at once (see maybe-async.ts); else as they come. */
export function handleStatus(request: ProxyRequest, ctx: ProxyContext): MaybePromise<Answer> {
  const { options } = ctx;
  return after(readJsonFields(request, options.limits.bodyBytes, FIELDS), (body) => {
    const paymentId = requireText(body.paymentId, 'paymentId');
    return after(enforceRate(options, request, 'status', `payment:${paymentId}`), () => {
      const token = requireText(body.token, 'token', 256);
      return after(readableRecord(ctx, request, paymentId, token), (record) =>
        record.view.final && !isIncomplete(record.view) ? answerOf(record, ctx) : refreshed(ctx, request, paymentId, record),
      );
    });
  });
}

/** An open payment (or one whose view lacks what the service has not said yet): asked about through the coalescer. */
async function refreshed(ctx: ProxyContext, request: ProxyRequest, paymentId: string, record: PaymentRecord): Promise<Answer> {
  // The token was issued for it: a service that cannot answer now is logged with the payment and its order
  // (request-subject.ts). Only here, where the service is asked anyway, not on a final payment's quick answer.
  rememberSubject(request, { paymentId, orderId: record.view.orderId });
  await ctx.ledger.refresh(paymentId, 'status');
  const now = (await ctx.options.store.getPayment(paymentId)) ?? record;
  // Only open payments cost this read of their order; they cost a call to the service anyway.
  if (!now.view.final && (await paidByAnother(ctx.options.store, now.view))) throw new ProxyError('order_paid', PAID_BY_ANOTHER);
  return answerOf(now, ctx);
}

function answerOf(record: PaymentRecord, ctx: ProxyContext): Answer {
  return jsonTextAnswer(200, paymentAnswerJson(record.view, ctx.options.serviceClock.now(), qrMatrixJson(record.view.qr)));
}
