/**
 * The browser's side of the proxy contract (docs/proxy.md): create, status and the event-stream URL. Every call takes
 * an AbortSignal and has its own time limit, on the element's clock (so tests move it), and every failure becomes one PayinError carrying the code the UI
 * and the `payin-error` event speak in. Nothing the proxy answers is trusted as-is: payments go through
 * readPaymentView, which derives `outcome` and `final` again from `state`.
 */
import type { Clock } from '../shared/clock.js';
import { isErrorCode, isRetryable } from '../shared/error-codes.js';
import { type PaymentView, readPaymentView } from '../shared/payment-view.js';
import type { ErrorEventDetail, WidgetErrorCode } from './events.js';

const REQUEST_TIMEOUT_MS = 15_000;

export class PayinError extends Error implements ErrorEventDetail {
  override readonly name = 'PayinError';
  readonly retryable: boolean;
  constructor(
    readonly code: WidgetErrorCode,
    message: string,
    /** From a 429's Retry-After, so that a retry does not come back too early (NaN, 0 or negative: no wait). */
    readonly retryAfterMs?: number,
  ) {
    super(message);
    this.retryable = code === 'network_error' || code === 'timeout' || code === 'bad_response' || isRetryable(code);
  }

  toDetail(): ErrorEventDetail {
    return { code: this.code, message: this.message, retryable: this.retryable };
  }
}

/**
 * Anything thrown while talking to the proxy, as a PayinError. An abort is no error: it is thrown only when the
 * caller's own signal aborted, and callers drop the answers of what they aborted before reading their errors.
 */
export function toPayinError(error: unknown): PayinError {
  if (error instanceof PayinError) return error;
  return new PayinError('network_error', String(error));
}

/** `{endpoint}/{route}`, tolerating a trailing slash on the endpoint. */
export function routeUrl(endpoint: string, route: string): string {
  return `${endpoint.replace(/\/+$/, '')}/${route}`;
}

/** What reads one payment (its status, its event stream): its id and the read token its create answered. */
export type PaymentRead = { paymentId: string; token: string };

export function eventsUrl(endpoint: string, read: PaymentRead): string {
  return `${routeUrl(endpoint, 'events')}?${new URLSearchParams(read)}`;
}

/**
 * POSTs `body` as JSON to the proxy's `route`: `payments` creates (and answers the payment's read token too),
 * `status` reads the payment again. Answers the payment, read, or throws the PayinError of what went wrong.
 */
export async function callProxy(
  endpoint: string,
  route: 'payments' | 'status',
  body: { orderId: string; method: string; orderToken?: string } | PaymentRead,
  signal: AbortSignal,
  clock: Clock,
): Promise<{ payment: PaymentView; token: string }> {
  const url = routeUrl(endpoint, route);
  // AbortSignal.any is too new for Safari 16: one controller follows both the caller and the time limit.
  const controller = new AbortController();
  const onAbort = () => controller.abort();
  // A signal aborted already is no concern: callers drop the answers of what they aborted.
  signal.addEventListener('abort', onAbort);
  const timer = clock.setTimeout(onAbort, REQUEST_TIMEOUT_MS);
  try {
    // credentials: 'same-origin' is fetch's default.
    const response = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
      signal: controller.signal,
    }).catch((error: Error) => {
      if (signal.aborted) throw signal.reason;
      throw new PayinError(controller.signal.aborted ? 'timeout' : 'network_error', `${url}: ${error.message}`);
    });
    const json = await response.json().catch(() => undefined);
    if (!response.ok) throw httpError(response, json);
    const payment = readPaymentView(json?.payment);
    if (!payment || (route === 'payments' && (typeof json.token !== 'string' || !json.token))) {
      throw new PayinError('bad_response', `${url}: no payment or no token: is endpoint the proxy?`);
    }
    return { payment, token: json.token };
  } finally {
    clock.clearTimeout(timer);
    signal.removeEventListener('abort', onAbort);
  }
}

function httpError(response: Response, json: unknown): PayinError {
  const error = (json as { error?: { code?: unknown; message?: unknown } } | undefined)?.error;
  const status = response.status;
  // The proxy's codes are a closed list (src/shared/error-codes.ts); anything else is judged by the status.
  const code: WidgetErrorCode = isErrorCode(error?.code)
    ? error.code
    : status === 429
      ? 'rate_limited'
      : status === 404
        ? 'not_found'
        : status >= 500
          ? 'internal'
          : 'bad_request';
  // A Retry-After that is no positive number of seconds is NaN, 0 or negative here: no wait then.
  return new PayinError(code, String(error?.message ?? `HTTP ${status}`), Number(response.headers.get('retry-after')) * 1000);
}
