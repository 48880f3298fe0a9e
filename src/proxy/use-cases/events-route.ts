/**
 * GET {basePath}/events?paymentId=&token=: the payment's states as server-sent events. The first event is the
 * current state (unless the browser's Last-Event-ID says it has it), then one per change, each with the record's
 * version as its id; the stream closes after the final state. When another payment of the order has paid it (the
 * shopper switched methods, then paid the first one's QR), the stream says so instead (`order-paid`, the body a
 * status call would answer with 409) and closes as after a final state: at once when the ledger records that
 * payment paid, or on opening when it already has. It is fed by the store's pub/sub, so callbacks and
 * status answers seen by any instance reach it; its ping also asks the service (coalesced with the status polls,
 * a failed call too, in Ledger.refresh: a thousand open streams cost a service that is down one call per window)
 * so that a shop whose callbacks cannot reach it still sees the payment end. Slots per client are bounded and given back on close.
 */
import type { Answer, ProxyRequest } from '../http/exchange.js';
import type { ProxyContext } from '../context.js';
import { readableRecord } from './readable-payment.js';
import { ProxyError } from '../http/errors.js';
import { channelOf } from '../ledger/ledger.js';
import { isOrderPaidNews, type PublishedMessage } from '../ledger/channel-messages.js';
import { PAID_BY_ANOTHER, paidByAnother } from '../ledger/orders.js';
import type { ApiErrorBody } from '../../shared/error-codes.js';
import { isIncomplete, toPaymentView } from '../http/payment-answer.js';
import { enforceRate, openStreamSlot } from '../http/rate-limit.js';
import { encodedEvent, lastEventId, SSE_HEADERS, SseWriter } from '../../shared/event-stream.js';
import type { StoredView } from '../infrastructure/store.js';
import { withQrMatrix } from '../http/qr-matrix-answer.js';

/** One state of the payment (or the news that its order is paid) as an event block, ready to write to every stream that has not had it. */
interface PaymentEvent {
  /** Undefined for news that is no state of the payment: every stream gets it, and it has no id. */
  version: number | undefined;
  /** The stream ends after it. */
  final: boolean;
  /** Undefined when the view is incomplete and must not be shown. */
  bytes: Uint8Array | undefined;
}

function paymentEvent(ctx: ProxyContext, version: number, view: StoredView): PaymentEvent {
  const shown = isIncomplete(view) ? undefined : withQrMatrix(toPaymentView(view, ctx.options.serviceClock.now()));
  return { version, final: view.final, bytes: shown && encodedEvent('payment', version, JSON.stringify(shown)) };
}

const ORDER_PAID_BODY: ApiErrorBody = { error: { code: 'order_paid', message: PAID_BY_ANOTHER } };

/**
 * Another payment paid the order. A new event name, so that a browser which does not know it (an older widget)
 * skips it; such a page still learns the news at once from the stream's end, which makes it check the status.
 */
const ORDER_PAID_EVENT: PaymentEvent = {
  version: undefined,
  final: true,
  bytes: encodedEvent('order-paid', undefined, JSON.stringify(ORDER_PAID_BODY)),
};

/** The last change each proxy broadcast, with the message it came in. */
const lastBroadcast = new WeakMap<ProxyContext, { message: string; event: PaymentEvent }>();

/**
 * A published change, parsed, mapped and encoded once for all the streams that follow the payment: the pub/sub
 * hands the same message to each of them in turn, so one kept entry serves a fan-out to thousands.
 */
function broadcastOf(ctx: ProxyContext, message: string): PaymentEvent {
  const last = lastBroadcast.get(ctx);
  if (last?.message === message) return last.event;
  const change = JSON.parse(message) as PublishedMessage;
  const event = isOrderPaidNews(change) ? ORDER_PAID_EVENT : paymentEvent(ctx, change.version, change.view);
  lastBroadcast.set(ctx, { message, event });
  return event;
}

export async function handleEvents(request: ProxyRequest, ctx: ProxyContext): Promise<Answer> {
  const { options, ledger } = ctx;
  const { store, clock, timeouts, logger } = options;
  const query = new URL(request.url).searchParams;
  const paymentId = query.get('paymentId') ?? '';
  const token = query.get('token') ?? '';
  if (!paymentId || !token) throw new ProxyError('bad_request', 'paymentId and token are required in the query');
  await enforceRate(options, request, 'status', `payment:${paymentId}`);
  const record = await readableRecord(ctx, request, paymentId, token);
  let sent = lastEventId(request);
  if (sent > record.version) sent = 0; // an id from elsewhere: start over
  // A finished payment the browser has already seen: 204 tells EventSource to stop reconnecting.
  if (record.view.final && sent >= record.version) return { status: 204, headers: {}, body: null };

  const release = await openStreamSlot(options, request, `payment:${paymentId}`);
  let unsubscribe: (() => Promise<void>) | undefined;
  let pingTimer: unknown;
  let endTimer: unknown;
  let ended = false;
  let letGo = () => {};
  /** `closing`: the proxy is closing, and the stream's connection goes with it (SseWriter.close). */
  const end = (closing = false) => {
    if (ended) return;
    ended = true;
    letGo();
    clock.clearTimeout(pingTimer);
    clock.clearTimeout(endTimer);
    // The abort listener stays on the request's signal, which goes with the request: end() is idempotent, and
    // taking it off (1.5-5 us on Node 20) adds up when one change ends a thousand streams at once.
    writer.close(closing);
    void unsubscribe?.().catch(() => {});
    void release().catch((error) => logger.warn('could not give back an event-stream slot', { error: String(error) }));
  };
  const writer = new SseWriter(() => end());
  const deliver = ({ version, final, bytes }: PaymentEvent) => {
    if (ended || (version !== undefined && version <= sent) || !bytes) return;
    if (version !== undefined) sent = version;
    writer.write(bytes);
    if (final) end();
  };
  const ping = () => {
    if (ended) return;
    writer.comment('ping');
    ledger.refresh(paymentId, 'events').catch(() => {});
    pingTimer = clock.setTimeout(ping, timeouts.pingMs);
  };

  const abort = () => end();
  request.signal.addEventListener('abort', abort, { once: true });
  try {
    // Subscribe before reading, so that a change between the two is not lost.
    unsubscribe = await store.subscribe(channelOf(paymentId), (message) => deliver(broadcastOf(ctx, message)));
    if (ended) void unsubscribe().catch(() => {});
    const current = (await store.getPayment(paymentId)) ?? record;
    deliver(paymentEvent(ctx, current.version, current.view));
    // Subscribed first, so news published meanwhile is not lost either (it ends the stream: the second is a no-op).
    if (!ended && !current.view.final && (await paidByAnother(store, current.view))) deliver(ORDER_PAID_EVENT);
    if (!ended && isIncomplete(current.view)) ledger.refresh(paymentId, 'events').catch(() => {});
  } catch (error) {
    end();
    throw error;
  }
  if (request.signal.aborted) end();
  // The proxy is closing (close() ended the others): the browser has the current state and reconnects elsewhere.
  else if (ctx.streams.closed) end(true);
  if (!ended) {
    letGo = ctx.streams.hold(() => end(true));
    pingTimer = clock.setTimeout(ping, timeouts.pingMs);
    endTimer = clock.setTimeout(() => end(), timeouts.streamMaxMs);
  }
  // Copied by assignment, not spread: see jsonTextAnswer (errors.ts) for why a spread header object is slow.
  return { status: 200, headers: Object.assign({}, SSE_HEADERS), body: writer.stream };
}
