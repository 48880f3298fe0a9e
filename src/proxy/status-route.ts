/**
 * POST {basePath}/status: `{paymentId, token}` in, `{payment}` out. The token is checked before anything else
 * and a wrong one reads like an unknown payment. A final payment is answered from the store; an open one is
 * refreshed from the service through the coalescer, so that many pollers of one payment cost one upstream call.
 */
import type { Answer, PlainRequest } from '../server/plain-exchange.js';
import type { ProxyContext } from './context.js';
import { readableRecord } from './context.js';
import { jsonTextAnswer } from './errors.js';
import { readJsonFields, requireText } from './json-body.js';
import { isIncomplete, paymentAnswerJson } from './payment-view-mapper.js';
import { enforceRate } from './rate-limit.js';

export async function handleStatus(request: PlainRequest, ctx: ProxyContext): Promise<Answer> {
  const { options } = ctx;
  const body = await readJsonFields(request, options.limits.bodyBytes, ['paymentId', 'token'] as const);
  const paymentId = requireText(body.paymentId, 'paymentId');
  await enforceRate(options, request, 'status', `payment:${paymentId}`);
  const token = requireText(body.token, 'token', 256);
  let record = await readableRecord(ctx, paymentId, token);
  if (!record.view.final || isIncomplete(record.view)) {
    await ctx.ledger.refresh(paymentId, 'status');
    record = (await options.store.getPayment(paymentId)) ?? record;
  }
  return jsonTextAnswer(200, paymentAnswerJson(record.view, options.clock.now()));
}
