/**
 * The browser's side of the proxy contract (the README's server setup): create, status and the event-stream URL. Every call takes
 * an AbortSignal and has its own time limit, on the element's clock (so tests move it), and every failure becomes one PayinError carrying the code the UI
 * and the `payin-error` event speak in. Nothing the proxy answers is trusted as-is: payments go through
 * readPaymentView, which derives `outcome` and `final` again from `state`.
 */
import { isErrorCode, isRetryable } from '../shared/error-codes.js';
import type { Clock } from '../shared/clock.js';
import { readPaymentView, type PaymentView } from '../shared/payment-view.js';
import type { ErrorEventDetail, WidgetErrorCode } from './events.js';

const REQUEST_TIMEOUT_MS = 15_000;

export class PayinError extends Error implements ErrorEventDetail {
  override readonly name = 'PayinError';
  readonly retryable: boolean;
  constructor(
    readonly code: WidgetErrorCode,
    message: string,
    /** From a 429's Retry-After, so that a retry does not come back too early. */
    readonly retryAfterMs?: number,
  ) {
    super(message);
    this.retryable = code === 'network_error' || code === 'timeout' || code === 'bad_response' || isRetryable(code);
  }

  toDetail(): ErrorEventDetail {
    return { code: this.code, message: this.message, retryable: this.retryable };
  }
}

/** Anything thrown while talking to the proxy, as a PayinError (callers check isAbort first: an abort is no error). */
export function toPayinError(error: unknown): PayinError {
  if (error instanceof PayinError) return error;
  return new PayinError('network_error', error instanceof Error ? error.message : String(error));
}

export function isAbort(error: unknown): boolean {
  return error instanceof DOMException && error.name === 'AbortError';
}

/** `{endpoint}/{route}`, tolerating a trailing slash on the endpoint. */
export function routeUrl(endpoint: string, route: string): string {
  return `${endpoint.replace(/\/+$/, '')}/${route}`;
}

export function eventsUrl(endpoint: string, paymentId: string, token: string): string {
  const query = `paymentId=${encodeURIComponent(paymentId)}&token=${encodeURIComponent(token)}`;
  return `${routeUrl(endpoint, 'events')}?${query}`;
}

export async function createPayment(
  endpoint: string,
  body: { orderId: string; method: string; orderToken?: string },
  signal: AbortSignal,
  clock: Clock,
): Promise<{ payment: PaymentView; token: string }> {
  const answer = await postJson(routeUrl(endpoint, 'payments'), body, signal, clock);
  const payment = readPaymentView(answer.payment);
  if (!payment || typeof answer.token !== 'string' || !answer.token) {
    throw new PayinError('bad_response', 'no {payment, token}: is endpoint the proxy?');
  }
  return { payment, token: answer.token };
}

export async function fetchStatus(
  endpoint: string,
  body: { paymentId: string; token: string },
  signal: AbortSignal,
  clock: Clock,
): Promise<PaymentView> {
  const answer = await postJson(routeUrl(endpoint, 'status'), body, signal, clock);
  const payment = readPaymentView(answer.payment);
  if (!payment) throw new PayinError('bad_response', 'no valid {payment}');
  return payment;
}

async function postJson(url: string, body: unknown, signal: AbortSignal, clock: Clock): Promise<Record<string, unknown>> {
  // AbortSignal.any is too new for Safari 16: one controller follows both the caller and the time limit.
  const controller = new AbortController();
  const onAbort = () => controller.abort(signal.reason);
  if (signal.aborted) onAbort();
  signal.addEventListener('abort', onAbort, { once: true });
  const timer = clock.setTimeout(() => controller.abort(new DOMException('time limit', 'TimeoutError')), REQUEST_TIMEOUT_MS);
  try {
    let response: Response;
    try {
      response = await fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json' },
        body: JSON.stringify(body),
        credentials: 'same-origin',
        signal: controller.signal,
      });
    } catch (error) {
      if (signal.aborted) throw signal.reason ?? error;
      if (controller.signal.aborted) throw new PayinError('timeout', `${url}: no answer`);
      throw new PayinError('network_error', `${url}: ${(error as Error).message}`);
    }
    const json = await response.json().catch(() => undefined);
    if (!response.ok) throw httpError(response, json);
    if (!json || typeof json !== 'object') throw new PayinError('bad_response', `${url}: not JSON`);
    return json as Record<string, unknown>;
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
  const message = typeof error?.message === 'string' ? error.message : `HTTP ${status}`;
  const retryAfter = Number(response.headers.get('retry-after'));
  return new PayinError(code, message, Number.isFinite(retryAfter) && retryAfter > 0 ? retryAfter * 1000 : undefined);
}
