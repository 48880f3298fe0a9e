/**
 * Follows one payment until its state is final: the proxy's event stream when the browser and the proxy allow it
 * (with a slow safety poll beside it, because a stream can stall without an error), else polling with jittered
 * backoff (poll-delay.ts). Coming back to the tab or back online checks at once: that is the moment a shopper
 * returns from the bank app. A phone may have cut the stream meanwhile (iOS drops a hidden page's connections,
 * and a page kept in the back-forward cache comes back with a dead one and no visibilitychange of its own), so
 * coming back (visibilitychange or pageshow) also opens a fresh stream, even one that seems open: the phone may
 * not have said yet that it cut it. Polling ends a little after the expiry (the deadline), so that a forgotten tab
 * does not poll forever. Everything in flight is aborted on stop; an answer older than one already shown is dropped by
 * the payment flow, which compares states and answer times. Waits and the deadline are on the element's clock.
 * The stream may also say that another payment of the order paid it (`order-paid`), which ends following as a
 * status answer of 409 order_paid does.
 */
import type { ReactiveController, ReactiveControllerHost } from 'lit';
import type { Clock } from '../../shared/clock.js';
import { type PaymentView, readPaymentView } from '../../shared/payment-view.js';
import { callProxy, eventsUrl, PayinError, type PaymentRead, toPayinError } from '../api-client.js';
import { nextDelay } from './poll-delay.js';

/**
 * EventSource.CLOSED, written out: a page that wraps EventSource in a function of its own (an error-tracking or
 * analytics library) leaves the constant behind, and a refused stream then never counted as one.
 */
const CLOSED = 2;

export interface StatusFeedOptions {
  onPayment: (payment: PaymentView) => void;
  /**
   * A failed check (error), or the end of such trouble (undefined). A failure that is not `retryable` (the token
   * is not accepted) has ended the following; any other is retried.
   */
  onTrouble: (error: PayinError | undefined) => void;
  /** The deadline passed without a final state. */
  onDeadline: () => void;
  /** The browser is back online (after the feed's own check of a followed payment). */
  onOnline: () => void;
  pollInterval: () => number;
  clock: Clock;
}

export class StatusFeedController implements ReactiveController {
  #endpoint = '';
  #target: PaymentRead | undefined;
  /** While following, when to stop (local epoch ms); 0 when not following. */
  #deadline = 0;
  #abort = new AbortController();
  #timer: unknown;
  #stream: EventSource | undefined;
  #streamOpen = false;
  #streamFailures = 0;
  #failures = 0;
  #retryAfterMs = 0;

  readonly #options: StatusFeedOptions;

  constructor(host: ReactiveControllerHost, options: StatusFeedOptions) {
    this.#options = options;
    host.addController(this);
  }

  /** Which payment single checks (checkNow) are about, without following it: the same `target` object keeps it. */
  setTarget(endpoint: string, target: PaymentRead): void {
    if (this.#target === target) return;
    this.stop();
    this.#endpoint = endpoint;
    this.#target = target;
  }

  /** Follows the target until stop() or `deadline` (local epoch ms). */
  follow(deadline: number): void {
    if (!this.#target) return;
    this.#deadline = deadline;
    if (!this.#stream) this.#openStream();
    this.#schedule(0);
  }

  /** Stops following and forgets the target; answers still in flight are dropped. */
  stop(): void {
    this.#deadline = 0;
    this.#target = undefined;
    this.#abort.abort();
    this.#abort = new AbortController();
    this.#options.clock.clearTimeout(this.#timer);
    this.#closeStream();
    this.#failures = 0;
  }

  /** One status check now; while following, the next poll is counted from its answer. */
  async checkNow(): Promise<void> {
    const target = this.#target;
    if (!target) return;
    this.#options.clock.clearTimeout(this.#timer);
    const { signal } = this.#abort;
    try {
      const { payment } = await callProxy(this.#endpoint, 'status', target, signal, this.#options.clock);
      if (signal.aborted) return;
      this.#failures = 0;
      this.#retryAfterMs = 0;
      this.#options.onTrouble(undefined);
      this.#options.onPayment(payment);
    } catch (error) {
      if (signal.aborted) return; // stop() aborted it: no error

      const failure = toPayinError(error);
      if (!failure.retryable) this.stop(); // no retry can fix it
      this.#failures++;
      this.#retryAfterMs = failure.retryAfterMs || 0; // NaN (no Retry-After) is no wait
      this.#options.onTrouble(failure);
    }
    if (this.#deadline && this.#target === target) this.#schedule();
  }

  hostConnected(): void {
    document.addEventListener('visibilitychange', this.#onVisibility);
    window.addEventListener('online', this.#onOnline);
    window.addEventListener('pageshow', this.#onVisibility);
  }

  hostDisconnected(): void {
    document.removeEventListener('visibilitychange', this.#onVisibility);
    window.removeEventListener('online', this.#onOnline);
    window.removeEventListener('pageshow', this.#onVisibility);
    this.stop();
  }

  #schedule(delay?: number): void {
    this.#options.clock.clearTimeout(this.#timer);
    if (!this.#deadline) return;
    if (this.#options.clock.now() >= this.#deadline) {
      this.#deadline = 0;
      this.#closeStream();
      this.#options.onDeadline();
      return;
    }
    const wait =
      delay ??
      nextDelay({
        interval: this.#options.pollInterval(),
        failures: this.#failures,
        hidden: document.visibilityState === 'hidden',
        streamOpen: this.#streamOpen,
        retryAfterMs: this.#retryAfterMs,
      });
    // Never beyond the deadline, which is still ahead here.
    this.#timer = this.#options.clock.setTimeout(() => void this.checkNow(), Math.min(wait, this.#deadline - this.#options.clock.now()));
  }

  #openStream(): void {
    const target = this.#target;
    // A browser or webview without EventSource (some embedded ones, or a page that removed it) polls instead.
    if (!target || typeof EventSource === 'undefined' || this.#streamFailures >= 3) return;
    const stream = new EventSource(eventsUrl(this.#endpoint, target));
    this.#stream = stream;
    stream.addEventListener('open', () => {
      this.#streamOpen = true;
      this.#streamFailures = 0;
      this.#schedule(); // from now on the poll is only a safety net
    });
    stream.addEventListener('payment', (event) => {
      try {
        const payment = readPaymentView(JSON.parse((event as MessageEvent<string>).data));
        if (payment && this.#stream === stream) this.#options.onPayment(payment);
      } catch {
        // Not JSON: skipped, as a message that is no payment is.
      }
    });
    // Another payment of the order paid it: the stream carries the body a status call would answer with 409
    // order_paid, and this ends following as that answer does, with the same error (shown as the order paid).
    stream.addEventListener('order-paid', (event) => {
      try {
        const paid = new PayinError('order_paid', JSON.parse((event as MessageEvent<string>).data).error.message);
        if (this.#stream !== stream) return;
        this.stop();
        this.#options.onTrouble(paid);
      } catch {
        // Not the proxy's body: skipped, as a message that is no payment is.
      }
    });
    stream.addEventListener('error', () => {
      if (this.#stream !== stream) return;
      const wasOpen = this.#streamOpen;
      this.#streamOpen = false;
      if (stream.readyState === CLOSED) {
        // Refused (no stream on this proxy, a 4xx, a wrong type): polling carries on alone.
        this.#streamFailures++;
        this.#closeStream();
      }
      if (wasOpen) this.#schedule(0); // something may have happened while the stream was failing
    });
  }

  #closeStream(): void {
    this.#stream?.close();
    this.#stream = undefined;
    this.#streamOpen = false;
  }

  /**
   * Shown or hidden; `pageshow` too, as a page restored from the back-forward cache may get no visibilitychange. Back
   * (from the bank app, another tab, the cache): a fresh stream, and a check now. Fresh even when the stream seems
   * open: a phone may have cut it without a word yet (WebKit says so only after `pageshow`, then reconnects after
   * its own 3 s), or left it stalled. A first `pageshow` finds nothing followed yet, so it checks nothing.
   */
  readonly #onVisibility = (): void => {
    if (document.visibilityState !== 'visible') {
      if (this.#deadline) this.#schedule();
      return;
    }
    if (this.#deadline) {
      this.#closeStream();
      this.#openStream();
    }
    void this.checkNow();
  };

  readonly #onOnline = (): void => {
    this.#streamFailures = 0;
    if (this.#deadline && !this.#stream) this.#openStream();
    void this.checkNow();
    this.#options.onOnline();
  };
}
