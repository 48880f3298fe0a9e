/**
 * Builds a proxy over the fake service with a manual clock, and small helpers to call it the way a browser and
 * the service would, so that each test reads as the rule it checks.
 */
import { signBody } from '../../src/shared/hmac.js';
import { ManualClock } from '../../src/shared/manual-clock.js';
import { createPayinProxy, type PayinProxyOptions } from '../../src/proxy/index.js';
import { MemoryStore } from '../../src/proxy/infrastructure/memory-store.js';
import { silentLogger, type ProxyLogger } from '../../src/proxy/logger.js';
import type { PaymentView } from '../../src/shared/payment-view.js';
import { BASE_URL, FakeService, MERCHANT, SECRET, TOKEN } from './fake-service.js';

export const ORIGIN = 'http://shop.test';
export const CALLBACK_URL = `${ORIGIN}/payin/callback`;

export function setup(overrides: Partial<PayinProxyOptions> = {}) {
  const clock = new ManualClock();
  const service = new FakeService();
  const store = new MemoryStore({ clock });
  const updates: { payment: PaymentView; source: string; secondPaymentOf?: string }[] = [];
  const proxy = createPayinProxy({
    provider: { baseUrl: BASE_URL, merchantId: MERCHANT, token: TOKEN, secret: SECRET },
    callbackUrl: CALLBACK_URL,
    resolveOrder: (orderId) => (orderId.startsWith('missing') ? null : { amount: '250.00', currency: 'INR' }),
    onPaymentUpdate: (payment, { source, secondPaymentOf }) => {
      updates.push({ payment, source, ...(secondPaymentOf ? { secondPaymentOf } : {}) });
    },
    fetch: service.fetch,
    clock,
    store,
    random: () => 0.5,
    logger: silentLogger,
    env: {},
    ...overrides,
  });

  const post = (path: string, body: unknown, headers: Record<string, string> = {}) =>
    proxy(
      new Request(`${ORIGIN}/payin${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...headers },
        body: typeof body === 'string' ? body : JSON.stringify(body),
      }),
    );

  const create = async (orderId = 'A-1', method = 'upi') => {
    const response = await post('/payments', { orderId, method });
    return { response, body: (await response.json()) as { payment: PaymentView; token: string; error?: { code: string } } };
  };

  const status = async (paymentId: string, token: string) => {
    const response = await post('/status', { paymentId, token });
    return { response, body: (await response.json()) as { payment: PaymentView; error?: { code: string } } };
  };

  /** Delivers a callback the way the service does: the exact bytes, signed (or with the given signature). */
  const callback = async (payload: unknown, signature?: string | null) => {
    const text = typeof payload === 'string' ? payload : JSON.stringify(payload);
    const headers: Record<string, string> = { 'content-type': 'application/json' };
    const sig = signature === undefined ? await signBody(SECRET, text) : signature;
    if (sig !== null) headers.signature = sig;
    return proxy(new Request(`${ORIGIN}/payin/callback`, { method: 'POST', headers, body: text }));
  };

  return { proxy, service, clock, store, updates, post, create, status, callback };
}

/** Waits (bounded: about a second of event-loop turns) until `condition` holds, e.g. until a request was sent. */
export async function until(condition: () => boolean, what = 'the condition'): Promise<void> {
  for (let i = 0; i < 2_000; i++) {
    if (condition()) return;
    await new Promise((resolve) => setTimeout(resolve, i < 100 ? 0 : 5));
  }
  throw new Error(`timed out waiting for ${what}`);
}

/** Moves the manual clock forward in steps until `promise` settles (bounded), for code that sleeps between tries. */
export async function drive<T>(
  clock: { advance(ms: number): Promise<void> },
  promise: Promise<T>,
  stepMs = 250,
  maxSteps = 200,
): Promise<T> {
  let settled = false;
  void promise.then(
    () => (settled = true),
    () => (settled = true),
  );
  for (let i = 0; i < maxSteps && !settled; i++) {
    await new Promise((resolve) => setTimeout(resolve, 2));
    await clock.advance(stepMs);
  }
  return promise;
}

/**
 * Moves the manual clock forward a second at a time, letting what each second's timers start (a status call over
 * the fake service) finish before the next (a few event-loop turns each, bounded).
 */
export async function passTime(clock: { advance(ms: number): Promise<void> }, ms: number): Promise<void> {
  for (let elapsed = 0; elapsed < ms; elapsed += 1_000) {
    await clock.advance(Math.min(1_000, ms - elapsed));
    for (let turn = 0; turn < 3; turn++) await new Promise((resolve) => setTimeout(resolve, 1));
  }
}

/** A logger that keeps each line as `message {fields}`, for tests of what the log says. */
export function capturingLogger(): { lines: string[]; logger: ProxyLogger } {
  const lines: string[] = [];
  const keep = (message: string, fields?: Record<string, unknown>) => void lines.push(`${message} ${JSON.stringify(fields ?? {})}`);
  return { lines, logger: { info: keep, warn: keep, error: keep } };
}
