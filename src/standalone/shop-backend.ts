/**
 * The two things the standalone proxy asks of a shop whose server is not JavaScript: the price of an order
 * (`PAYIN_RESOLVE_URL`, or a signed order token the page rendered) and the news of each payment state
 * (`PAYIN_WEBHOOK_URL`). Both go through signed HTTP (signed-post.ts); both are plugged into the proxy's public
 * options, resolveOrder and onPaymentUpdate, so the ledger retries a webhook until the shop answers 2xx.
 */
import type { PayinProxyOptions, PaymentUpdateInfo, PricedOrder } from '../proxy/options.js';
import { ProxyError } from '../proxy/http/errors.js';
import { BodyTooLargeError, readBody } from '../shared/body.js';
import { chargeablePrice, unchargeableNote } from '../shared/money.js';
import type { PaymentView } from '../shared/payment-view.js';
import type { Metrics } from './metrics.js';
import { verifyOrderToken } from './order-token.js';
import { answerNote, ShopCallError, type SignedPoster } from './signed-post.js';
import { RepeatFolder } from '../proxy/infrastructure/folded-repeats.js';
import { isLoggedFailure } from '../proxy/infrastructure/logged-failures.js';
import { systemClock } from '../shared/clock.js';
import { WebhookFailures } from './webhook-failures.js';

/**
 * A price is a few dozen bytes. The answer was read whole: a URL serving a download, or an endpoint echoing a cart
 * back, held the proxy reading into memory until the call's time limit, and a long answer that held a price was believed.
 */
export const MAX_PRICE_ANSWER_BYTES = 64 * 1024;

export type Pricing = { kind: 'url'; url: string } | { kind: 'token'; secret: string };

/**
 * `refusals` folds the refusals of order tokens by their reason (folded-repeats.ts): anyone can post a made-up order
 * id without a token, from as many addresses as they have, so the first of each reason is said with its order id
 * and the others are counted once a minute. The server flushes it when it closes.
 */
export function resolveOrderVia(
  pricing: Pricing,
  poster: SignedPoster,
  now: () => number,
  log: (line: string) => void,
  refusals: RepeatFolder = new RepeatFolder(systemClock),
): PayinProxyOptions['resolveOrder'] {
  if (pricing.kind === 'token') {
    const seconds = refusals.windowSeconds;
    return async (orderId, _method, _request, { orderToken }) => {
      if (!orderToken) {
        // Said, as a bad token is: a page whose template forgot the attribute otherwise got 404 with a silent log.
        refusals.say('no order token', (repeats) =>
          log(
            repeats
              ? `refused ${repeats} more creates without an order token in the last ${seconds} s`
              : `refused a create of ${orderId}: no order token (PAYIN_ORDER_TOKEN_SECRET prices orders, so the page's <payin-checkout> needs order-token="...")`,
          ),
        );
        return null;
      }
      const checked = await verifyOrderToken(pricing.secret, orderToken, orderId, now());
      if (!checked.ok) {
        const { reason } = checked;
        refusals.say(`order token: ${reason}`, (repeats) =>
          log(
            repeats
              ? `refused ${repeats} more order tokens in the last ${seconds} s: ${reason}`
              : `refused an order token for ${orderId}: ${reason}`,
          ),
        );
        return null;
      }
      return { amount: checked.claims.amount, currency: checked.claims.currency };
    };
  }
  return async (orderId, method, _request, { orderToken }) => {
    // A header carries the id, and headers are ASCII: an order id in Cyrillic or Devanagari is percent-encoded there
    // (the body has it as it is).
    const id = `price_${encodeURIComponent(orderId)}_${now()}`;
    // The page's order token, when it rendered one, is the endpoint's only word about who asks (this call carries
    // nothing of the shopper's request): with it the shop can refuse a visitor who merely guessed the order id.
    const asked = orderToken === undefined ? { orderId, method } : { orderId, method, orderToken };
    const answer = await poster.post(pricing.url, id, asked).catch((error: unknown) => {
      log(`pricing call failed: ${(error as Error).message}`);
      throw new ProxyError('upstream_error', "the shop's pricing endpoint could not be reached");
    });
    if (answer.status === 404) {
      // Let go of its body: unread, it holds its connection to the shop until garbage collection.
      await answer.body?.cancel().catch(() => {});
      return null;
    }
    const text = await priceAnswerText(answer).catch((error: unknown) => {
      const answered = `pricing call for ${orderId} answered HTTP ${answer.status}${answerNote(answer, pricing.url)}`;
      // Cut short (the call's time limit, a dropped connection) is said as such: taken as an empty body, it was
      // logged as an answer without a price, and the shop looked for a fault in its JSON.
      log(
        error instanceof BodyTooLargeError
          ? `${answered} with more than ${MAX_PRICE_ANSWER_BYTES / 1024} KiB, not read further (a price is a few dozen bytes: is PAYIN_RESOLVE_URL your pricing endpoint?)`
          : `${answered}, but its body did not arrive whole (${(error as Error)?.message ?? String(error)})`,
      );
      throw new ProxyError('upstream_error', "the shop's pricing endpoint gave no price");
    });
    const body = jsonOf(text) as Partial<PricedOrder> | undefined;
    if (!answer.ok || !body || body.amount === undefined || typeof body.currency !== 'string') {
      const said = answer.ok ? unpriced(answer, text, body) : 'without {amount, currency}';
      log(`pricing call for ${orderId} answered HTTP ${answer.status}${answerNote(answer, pricing.url)} ${said}`);
      throw new ProxyError('upstream_error', "the shop's pricing endpoint gave no price");
    }
    // An endpoint need not echo the order, but one that names another (it priced the visitor's session cart, or a
    // cache in front of it answered) gives no price of this one: charged, it was another order's total.
    const named = (body as { orderId?: unknown }).orderId;
    if (named !== undefined && String(named) !== orderId) {
      log(
        `pricing call for ${orderId} answered the price of another order, ${JSON.stringify(named).slice(0, 140)}: not taken for this one`,
      );
      throw new ProxyError('upstream_error', "the shop's pricing endpoint gave no price");
    }
    // A price that cannot be charged is the endpoint answering wrongly (502), not a fault of this server (500).
    const price = chargeablePrice(body);
    if (!price) {
      log(`pricing call for ${orderId} answered a price that cannot be charged: ${unchargeableNote(body)}`);
      throw new ProxyError('upstream_error', "the shop's pricing endpoint gave no price");
    }
    return price;
  };
}

async function priceAnswerText(answer: Response): Promise<string> {
  return new TextDecoder().decode(await readBody(answer, MAX_PRICE_ANSWER_BYTES));
}

function jsonOf(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/**
 * What a 2xx answer without a price held, for its log line: "without {amount, currency}" alone left a shop whose
 * endpoint does write them puzzled when a PHP notice printed before the JSON, or a framework's envelope around it
 * ({"data": {...}}), was what the proxy read. The keys and the content type are named, never the body.
 */
function unpriced(answer: Response, text: string, body: unknown): string {
  if (text.trim() && body === undefined) {
    const type = answer.headers.get('content-type')?.split(';')[0] || 'no content type';
    return `with a body that is not JSON (${type}: a PHP notice or an error page printed before the JSON?)`;
  }
  if (body && typeof body === 'object' && !Array.isArray(body)) {
    const keys = Object.keys(body).slice(0, 10);
    return `without {amount, currency}${keys.length ? ` (its keys: ${keys.join(', ')})` : ''}`;
  }
  return 'without {amount, currency}';
}

/**
 * Sends each announcement as a webhook. A failure is said with why (the status, what the shop's answer suggests),
 * but only the 1st, 2nd, 4th, 8th... of one webhook (logged-failures.ts says why; webhook-failures.ts keeps the
 * counts); the metrics count every failure.
 */
export function webhookDelivery(
  url: string,
  poster: SignedPoster,
  metrics: Metrics,
  log: (line: string) => void,
  failures: WebhookFailures = new WebhookFailures(),
) {
  const failed = (payment: PaymentView, words: string) => {
    const count = failures.failed(payment.id, payment.state);
    metrics.webhookFailed();
    if (isLoggedFailure(count)) log(`${words}; the proxy retries with backoff (failure ${count}, next said at failure ${count * 2})`);
  };
  return async (payment: PaymentView, info: PaymentUpdateInfo): Promise<void> => {
    // Stable per payment and state, so that the shop can drop a repeat.
    const id = `msg_${payment.id}_${payment.state}`;
    const data = { ...payment, source: info.source, ...(info.secondPaymentOf ? { secondPaymentOf: info.secondPaymentOf } : {}) };
    let status: number | undefined;
    let note = '';
    try {
      const answer = await poster.post(url, id, { type: 'payment.updated', data }, info.signal);
      status = answer.status;
      note = answerNote(answer, url);
      await answer.body?.cancel();
    } catch (error) {
      failed(payment, `webhook ${id} failed (${(error as Error).message})`);
      throw error;
    }
    if (status < 200 || status > 299) {
      failed(payment, `webhook ${id} answered HTTP ${status}${note}`);
      throw new ShopCallError(`the webhook answered HTTP ${status}`, status);
    }
    failures.taken(payment.id);
    metrics.webhookDelivered(payment.outcome);
  };
}
