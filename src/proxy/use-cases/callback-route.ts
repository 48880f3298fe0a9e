/**
 * POST {basePath}/callback: the service's signed notice of a new state. The signature is checked over the raw
 * bytes before anything is parsed, so a forged or altered body changes nothing. Nothing is signed against replay,
 * so the handling is idempotent and monotonic instead: duplicates and late arrivals are acknowledged without
 * effect, and "paid" is believed only after a status call says so. The answer is 200 once the state is recorded
 * (the shop's hook is called by the outbox, and retried there if it fails); 5xx only when it could not be
 * recorded (the store or the service failed), so that the service delivers again.
 */
import { outcomeOf } from '../../shared/outcome.js';
import { verifiedUnderAny } from '../infrastructure/rotated-secrets.js';
import { parseCallbackBody } from '../../shared/provider-messages.js';
import { BodyConsumedError, BodyTooLargeError, parseJsonBytes, readBody } from '../../shared/body.js';
import type { Answer, ProxyRequest } from '../http/exchange.js';
import type { ProxyContext } from '../context.js';
import { jsonAnswer, ProxyError } from '../http/errors.js';
import { confirmsPaid, type ObservedPayment, unconfirmedFinish } from '../ledger/payment-view-mapper.js';
import { UpstreamError } from '../infrastructure/upstream-client.js';
import { isOngoing } from '../ledger/contradiction-marks.js';
import { checkContradiction, checkContradictionEnded, contradictsFinal } from './final-contradiction.js';
import { callbackName } from './callback-confirmations.js';
import { rememberSubject } from '../http/request-subject.js';

const UNSIGNED_HINT =
  'wrong PAYIN_SECRET (during a rotation give the new and the old one, space-separated), or is the body re-serialised before the proxy, by express.json() for example?';

export async function handleCallback(request: ProxyRequest, ctx: ProxyContext): Promise<Answer> {
  const { options, ledger } = ctx;
  const { provider, store, logger } = options;
  let bytes: Uint8Array;
  try {
    bytes = await readBody(request, options.limits.callbackBodyBytes);
  } catch (error) {
    if (error instanceof BodyTooLargeError) throw new ProxyError('payload_too_large', `callback body over ${error.limit} bytes`);
    if (error instanceof BodyConsumedError) throw new ProxyError('internal', error.message, { cause: error });
    throw new ProxyError('bad_request', 'the callback body could not be read', { cause: error });
  }
  // Under the previous secret too during a rotation: the service may have signed it before it switched.
  const signed = await verifiedUnderAny(provider.secrets, bytes, request.headers.get('signature'), provider.signatureEncoding);
  if (!signed) {
    // Anyone can post here: the logger folds a flood of these into one line and a count a minute (folded-repeats.ts),
    // and the line says what to check, since after a secret rotation the service's own callbacks land here too.
    logger.warn(`refused a callback whose Signature does not verify: ${UNSIGNED_HINT}`);
    throw new ProxyError('bad_request', `the Signature does not verify over the raw body (${UNSIGNED_HINT})`, { status: 401 });
  }
  const json = parseJsonBytes(bytes);
  const parsed = json.ok ? parseCallbackBody(json.value) : undefined;
  if (!parsed?.ok) {
    const error = parsed ? parsed.error : 'the callback body is not JSON, or nested too deeply';
    // Signed, so the service sent it: the payment it names stands still until the service writes it readably.
    logger.warn('refused a signed callback that cannot be read', { paymentId: paymentIdOf(json.ok ? json.value : undefined), error });
    throw new ProxyError('bad_request', error);
  }
  const notice = parsed.value;
  // Which callback this is: its copies (a replay, the service's redelivery) share the status call that checks it.
  const heard = callbackName(request.headers.get('signature') ?? '', provider.signatureEncoding);

  const stored = await store.getPayment(notice.id);
  // Signed, so the ids are the service's: a 5xx from here on names the payment in the log (request-subject.ts).
  rememberSubject(request, { paymentId: notice.id, orderId: stored?.view.orderId ?? notice.orderId });
  if (!stored) return adoptUnknown(notice, heard, ctx);
  if (contradictsFinal(stored.view, notice)) {
    await checkContradiction(stored, heard, ctx);
    return acknowledged();
  }
  if (stored.view.final && notice.state === stored.view.state && isOngoing(stored.contradicted)) {
    await checkContradictionEnded(stored, heard, ctx);
  }
  // Paid ships goods: believe the service's status answer, not the notice alone.
  const observed = outcomeOf(notice.state) === 'paid' && !stored.view.final ? await statusOfPaid(notice, heard, ctx) : notice;
  await ledger.observe(observed, undefined, 'callback');
  return acknowledged();
}

/**
 * The status answer that checks a callback's "paid", shared with the callback's copies (callback-confirmations.ts).
 * When it does not say paid yet it may lag the service's own callback: the payment is asked about again soon
 * (paid-rechecks.ts), once however many copies arrive, and the sweep goes on after that.
 */
async function statusOfPaid(notice: ObservedPayment, heard: string, ctx: ProxyContext): Promise<ObservedPayment> {
  const observed = await ctx.confirmations.answer(notice.id, heard);
  if (!confirmsPaid(observed)) {
    ctx.options.logger.warn('a callback said paid but the status answer disagrees; storing the status answer and asking again soon', {
      paymentId: notice.id,
      state: observed.state,
    });
    ctx.rechecks.soon(notice.id);
  }
  return observed;
}

/**
 * A verified notice about a payment this proxy has no record of: the store lost it (a restarted memory store)
 * or another deployment created it. The signature proves the service sent it for this merchant, so the payment
 * is looked up and, when the service knows it, recorded and announced: a shop must hear "paid" even after a
 * restart. The look-up is shared with the notice's copies (callback-confirmations.ts), and a "paid" it does not
 * confirm yet is asked about again soon, as for a payment the store knows. A service that does not know the
 * payment gets 200 and nothing changes; one that cannot answer now, or answers a finish it does not confirm yet
 * (which is not recorded, so nothing here would ask again), gets 502, so that it delivers the notice again.
 */
async function adoptUnknown(notice: ObservedPayment, heard: string, ctx: ProxyContext): Promise<Answer> {
  const { ledger, options } = ctx;
  const paymentId = notice.id;
  let fresh: ObservedPayment;
  try {
    fresh = await ctx.confirmations.answer(paymentId, heard);
  } catch (error) {
    if (error instanceof UpstreamError && !error.retryable) {
      options.logger.info('ignored a callback for a payment the service does not know', { paymentId });
      return acknowledged();
    }
    throw error;
  }
  const record = await ledger.adopt(fresh, 'callback');
  if (!record && confirmsPaid(notice) && unconfirmedFinish(fresh)) {
    // An unconfirmed finish is not recorded, so no re-check or sweep follows this payment: the service must ask again.
    throw new ProxyError('upstream_error', 'the service does not confirm this paid payment yet; deliver the callback again');
  }
  if (!record) {
    options.logger.warn('ignored a callback for an unknown payment the status answer does not describe fully', { paymentId });
  } else if (outcomeOf(notice.state) === 'paid' && !record.view.final && !confirmsPaid(fresh)) {
    ctx.rechecks.soon(paymentId);
  }
  return acknowledged();
}

function paymentIdOf(body: unknown): string | undefined {
  const id = body && typeof body === 'object' ? (body as { id?: unknown }).id : undefined;
  return typeof id === 'string' || typeof id === 'number' ? String(id) : undefined;
}

const acknowledged = () => jsonAnswer(200, { ok: true });
