/**
 * POST {basePath}/callback: the service's signed notice of a new state. The signature is checked over the raw
 * bytes before anything is parsed, so a forged or altered body changes nothing. Nothing is signed against replay,
 * so the handling is idempotent and monotonic instead: duplicates and late arrivals are acknowledged without
 * effect, and "paid" is believed only after a status call says so. The answer is 200 unless the shop's hook
 * failed (500, so the service delivers again and the state is announced again) or paid could not be confirmed.
 */
import { outcomeOf } from '../shared/outcome.js';
import { verifySignature } from '../shared/hmac.js';
import { parseCallbackBody } from '../shared/provider-messages.js';
import { BodyTooLargeError, parseJsonBytes, readBody } from '../server/body.js';
import type { ProxyContext } from './context.js';
import { jsonResponse, ProxyError } from './errors.js';
import type { ObservedPayment } from './payment-view-mapper.js';
import type { PaymentRecord } from './store.js';
import { UpstreamError } from './upstream-client.js';

export async function handleCallback(request: Request, ctx: ProxyContext): Promise<Response> {
  const { options, updates } = ctx;
  const { provider, store, logger } = options;
  let bytes: Uint8Array;
  try {
    bytes = await readBody(request, options.limits.callbackBodyBytes);
  } catch (error) {
    if (error instanceof BodyTooLargeError) throw new ProxyError('payload_too_large', `callback body over ${error.limit} bytes`);
    throw new ProxyError('bad_request', 'the callback body could not be read', { cause: error });
  }
  const signed = await verifySignature(provider.secret, bytes, request.headers.get('signature'), provider.signatureEncoding);
  if (!signed) {
    logger.warn('refused a callback whose Signature does not verify');
    throw new ProxyError(
      'bad_request',
      'the Signature does not verify over the raw body (wrong PAYIN_SECRET, or is the body re-serialised before the proxy, by express.json() for example?)',
      { status: 401 },
    );
  }
  const json = parseJsonBytes(bytes);
  const parsed = json.ok ? parseCallbackBody(json.value) : undefined;
  if (!parsed?.ok) throw new ProxyError('bad_request', parsed ? parsed.error : 'the callback body is not JSON');
  const notice = parsed.value;

  const stored = await store.getPayment(notice.id);
  if (!stored) return adoptUnknown(notice.id, ctx);
  let observed: ObservedPayment = notice;
  if (outcomeOf(notice.state) === 'paid' && stored.view.outcome !== 'paid') {
    // Paid ships goods: believe the service's status answer, not the notice alone.
    observed = await updates.fetchFresh(notice.id);
    if (outcomeOf(observed.state) !== 'paid') {
      logger.warn('a callback said paid but the status answer disagrees; storing the status answer', { paymentId: notice.id, state: observed.state });
    }
  }
  const record = (await updates.observe(observed)) ?? stored;
  return announceAndAcknowledge(record, ctx);
}

/**
 * A verified notice about a payment this proxy has no record of: the store lost it (a restarted memory store,
 * an expired record) or another deployment created it. The signature proves the service sent it for this
 * merchant, so the payment is looked up and, when the service knows it, recorded and announced: a shop must
 * hear "paid" even after a restart. A service that does not know the payment gets 200 and nothing changes; one
 * that cannot answer now gets 502, so that it delivers the notice again.
 */
async function adoptUnknown(paymentId: string, ctx: ProxyContext): Promise<Response> {
  const { updates, options } = ctx;
  let fresh: ObservedPayment;
  try {
    fresh = await updates.fetchFresh(paymentId);
  } catch (error) {
    if (error instanceof UpstreamError && !error.retryable) {
      options.logger.info('ignored a callback for a payment the service does not know', { paymentId });
      return jsonResponse(200, { ok: true });
    }
    throw error;
  }
  const record = await updates.adopt(fresh);
  if (!record) {
    options.logger.warn('ignored a callback for an unknown payment the status answer does not describe fully', { paymentId });
    return jsonResponse(200, { ok: true });
  }
  return announceAndAcknowledge(record, ctx);
}

/** 200 once the shop has heard the state; 500 when its hook failed, so that the service delivers again. */
async function announceAndAcknowledge(record: PaymentRecord, ctx: ProxyContext): Promise<Response> {
  try {
    await ctx.updates.announce(record, 'callback');
  } catch (error) {
    throw new ProxyError('internal', "the shop's onPaymentUpdate hook failed; the service will deliver this callback again", { cause: error });
  }
  return jsonResponse(200, { ok: true });
}
