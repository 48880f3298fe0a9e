/**
 * Callback delivery, as the real service does it: on every state change a POST to the payment's `callbackUri`
 * with `Content-Type: application/json`, the Payment object as the body (its `datetime` the time of sending) and
 * a `Signature` header, the HMAC of exactly those bytes. The body is the Payment as the service's callbacks carry
 * it, which is not quite the status answer's: an empty field is left out (`media` until it holds a link) and
 * `amount_commission_less` comes as a string, so that a receiver that reads the status answer's types into fixed
 * types (a number there, an array always there) fails here as it would in production. The service expects HTTP 200 and ignores the body, so
 * anything else (a 204 or 202 as well as a 500, a refused connection, no answer within the timeout, a redirect) is
 * retried with doubling delays until the attempts run out. Every attempt is recorded on the payment, so the
 * console can show what the shop answered. Waiting happens on the injected clock; `idle()` tells tests when no
 * attempt is on the wire.
 */
import { systemClock, type Clock } from '../shared/clock.js';
import { signBody } from '../shared/hmac.js';
import { toIso } from '../shared/timestamps.js';
import type { Faults } from './faults.js';
import { paymentAt, type PaymentRecord, type SandboxPayment } from './payment-store.js';
import { isFinal } from './state-machine.js';

export interface DispatcherOptions {
  clock: Clock;
  fetch: typeof fetch;
  attempts: number;
  retryDelayMs: number;
  timeoutMs: number;
  reorderDelayMs: number;
  faults: () => Faults;
  /** The key to sign a merchant's callbacks with; empty gives an empty Signature header. */
  secretOf: (merchantId: string) => string;
  onError: (error: unknown) => void;
}

/** Real milliseconds an attempt is given at least, whatever its clock says: a loopback answer takes a few. */
const REAL_TIME_FLOOR_MS = 1000;

interface Message {
  number: number;
  record: PaymentRecord;
  payment: Omit<SandboxPayment, 'datetime'>;
  duplicate: boolean;
}

export class CallbackDispatcher {
  #options: DispatcherOptions;
  #next = 1;
  #inFlight = 0;
  #waiters: (() => void)[] = [];
  #timers = new Set<unknown>();
  #controllers = new Set<AbortController>();
  #closed = false;

  constructor(options: DispatcherOptions) {
    this.#options = options;
  }

  /** Sends the payment's current state to its callbackUri (twice, or held back, when a fault says so). */
  announce(record: PaymentRecord): void {
    if (this.#closed) return;
    const payment = paymentAt(record.payment, 0);
    const { datetime: _sentLater, ...snapshot } = payment;
    const faults = this.#options.faults();
    const hold = faults.reorderCallbacks && !isFinal(snapshot.state) ? this.#options.reorderDelayMs : 0;
    for (let copy = 0; copy < (faults.duplicateCallbacks ? 2 : 1); copy++) {
      const message: Message = { number: this.#next++, record, payment: snapshot, duplicate: copy > 0 };
      if (hold > 0) this.#later(hold, () => this.#attempt(message, 1));
      else this.#attempt(message, 1);
    }
  }

  /** Resolves once no delivery attempt is on the wire (retries waiting on the clock do not count). */
  idle(): Promise<void> {
    if (this.#inFlight === 0) return Promise.resolve();
    return new Promise((resolve) => this.#waiters.push(resolve));
  }

  /** Stops for good: waiting retries are dropped and attempts on the wire are aborted. */
  close(): void {
    this.#closed = true;
    for (const timer of this.#timers) this.#options.clock.clearTimeout(timer);
    this.#timers.clear();
    for (const controller of this.#controllers) controller.abort(new Error('the sandbox was closed'));
  }

  #later(ms: number, run: () => void): void {
    const timer = this.#options.clock.setTimeout(() => {
      this.#timers.delete(timer);
      run();
    }, ms);
    this.#timers.add(timer);
  }

  #attempt(message: Message, attempt: number): void {
    if (this.#closed) return;
    this.#inFlight++;
    this.#send(message, attempt)
      .catch((error: unknown) => this.#options.onError(error))
      .finally(() => {
        if (--this.#inFlight === 0) for (const resolve of this.#waiters.splice(0)) resolve();
      });
  }

  async #send(message: Message, attempt: number): Promise<void> {
    const { clock, timeoutMs } = this.#options;
    const startedAt = clock.now();
    const startedWall = performance.now();
    const body = JSON.stringify(callbackBody(message.payment, startedAt));
    const secret = this.#options.secretOf(message.record.merchantId);
    const signature = secret ? await signBody(secret, body) : '';
    const controller = new AbortController();
    this.#controllers.add(controller);
    const timeout = () => controller.abort(new Error(`no answer within ${timeoutMs} ms`));
    // The time-out is on the clock, as the retries are, but the answer comes over a real socket: a test that moves
    // its clock minutes ahead in one step would otherwise time out (and resend) a callback the shop answered at
    // once. So an attempt is also given some real time, never more than the time-out itself.
    let realTimer: unknown;
    const timer = clock.setTimeout(() => {
      const realLeft = Math.min(timeoutMs, REAL_TIME_FLOOR_MS) - (performance.now() - startedWall);
      if (realLeft <= 0) timeout();
      else realTimer = systemClock.setTimeout(timeout, realLeft);
    }, timeoutMs);
    let httpStatus: number | undefined;
    let error: string | undefined;
    try {
      const response = await this.#options.fetch(message.record.callbackUri, {
        method: 'POST',
        headers: { 'content-type': 'application/json', signature },
        body,
        redirect: 'manual',
        signal: controller.signal,
      });
      httpStatus = response.status;
      await response.body?.cancel().catch(() => {});
    } catch (e) {
      error = controller.signal.aborted ? describe(controller.signal.reason) : describe(e);
    } finally {
      clock.clearTimeout(timer);
      systemClock.clearTimeout(realTimer);
      this.#controllers.delete(controller);
    }
    if (this.#closed) return;
    const ok = httpStatus === 200;
    message.record.deliveries.push({
      callback: message.number,
      attempt,
      state: message.payment.state,
      at: toIso(startedAt),
      ...(httpStatus !== undefined ? { httpStatus } : {}),
      ...(error !== undefined ? { error } : {}),
      durationMs: Math.round(performance.now() - startedWall),
      ok,
      ...(message.duplicate ? { duplicate: true } : {}),
    });
    if (!ok && attempt < this.#options.attempts) {
      this.#later(this.#options.retryDelayMs * 2 ** (attempt - 1), () => this.#attempt(message, attempt + 1));
    }
  }
}

/** The Payment as a callback carries it at `nowMs`: empty fields left out, amount_commission_less as text. */
function callbackBody(payment: Omit<SandboxPayment, 'datetime'>, nowMs: number): Record<string, unknown> {
  const body: Record<string, unknown> = {};
  for (const [key, value] of Object.entries({ datetime: Math.floor(nowMs / 1000), ...payment })) {
    if (Array.isArray(value) && value.length === 0) continue;
    body[key] = key === 'amount_commission_less' ? (value as number).toFixed(2) : value;
  }
  return body;
}

function describe(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const code = (error.cause as { code?: unknown } | undefined)?.code;
  return typeof code === 'string' ? `${error.message} (${code})` : error.message;
}
