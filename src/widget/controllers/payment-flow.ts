/**
 * The checkout's one source of truth: which payment is shown, how it was obtained (created, or resumed after a
 * reload from session-store.ts without a second create), which answers count (never an older state over a newer
 * one, never another payment's), and which events fire. Following is delegated: the countdown, the status feed
 * and the coordination between tabs are controllers of their own; this one wires them and decides.
 */
import type { ReactiveController, ReactiveControllerHost } from 'lit';
import { stateRank } from '../../shared/outcome.js';
import type { PaymentView } from '../../shared/payment-view.js';
import { createPayment, fetchStatus, isAbort, PayinError, toPayinError } from '../api-client.js';
import { emit } from '../events.js';
import { claimFinalAnnouncement, clearRecord, loadRecord, saveRecord, type SessionRecord } from '../session-store.js';
import { CountdownController } from './countdown.js';
import { StatusFeedController } from './status-feed.js';
import { TabCoordinationController } from './tab-coordination.js';

/** The event each final outcome fires, once per page and payment. */
const FINAL_EVENTS: Partial<Record<PaymentView['outcome'], 'payin-paid' | 'payin-underpaid' | 'payin-expired' | 'payin-failed'>> = {
  paid: 'payin-paid',
  underpaid: 'payin-underpaid',
  expired: 'payin-expired',
  failed: 'payin-failed',
};

/** Following stops this long after the expiry without a final state ("Check again" restarts it). */
export const FOLLOW_GRACE_MS = 5 * 60_000;

export type Phase = 'idle' | 'creating' | 'resuming' | 'active' | 'error';
type Origin = 'create' | 'resume' | 'feed' | 'peer';

export interface FlowConfig {
  endpoint: string;
  orderId: string;
  /** Sent with the create request when the page rendered one. */
  orderToken?: string;
  /** The method to pay with, when known (attribute, single entry of `methods`, or the shopper's choice). */
  method: string | undefined;
  methods: string[];
  autostart: boolean;
  pollInterval: number;
}

export class PaymentFlowController implements ReactiveController {
  phase: Phase = 'idle';
  payment: PaymentView | undefined;
  /** What stopped the flow (shown as a screen with a retry). */
  error: PayinError | undefined;
  /** A failing connection while following (shown as a notice; the feed retries by itself). */
  trouble: PayinError | undefined;
  /** The follow deadline passed without a final state. */
  stalled = false;
  readonly countdown: CountdownController;
  readonly feed: StatusFeedController;
  readonly tabs: TabCoordinationController;
  #token: string | undefined;
  #run = 0;
  #abort = new AbortController();
  #pending: Promise<void> | undefined;
  #lastMethod: string | undefined;
  /** The order of the create or resume in flight (or that failed), before any payment is there to say it. */
  #order: string | undefined;

  readonly #host: ReactiveControllerHost & HTMLElement;
  readonly #config: () => FlowConfig;

  constructor(host: ReactiveControllerHost & HTMLElement, config: () => FlowConfig) {
    this.#host = host;
    this.#config = config;
    this.countdown = new CountdownController(host, { onZero: () => void this.feed.checkNow() });
    this.feed = new StatusFeedController(host, {
      onPayment: (p) => this.#accept(p, 'feed'),
      onTrouble: (e) => this.#setTrouble(e),
      onFatal: (e) => this.#fail(e),
      onDeadline: () => this.#update(() => (this.stalled = true)),
      pollInterval: () => this.#config().pollInterval,
    });
    this.tabs = new TabCoordinationController(host, {
      onLead: () => this.feed.follow(this.#deadline()),
      onPeerPayment: (p) => this.#accept(p, 'peer'),
    });
    host.addController(this); // after the controllers it drives, so that they are connected first
  }

  /** Resumes a remembered payment, or autostarts; called whenever the configuration may have changed. */
  sync(): void {
    const { endpoint, orderId, methods, autostart, method } = this.#config();
    const open = this.payment;
    const forOrder = open?.orderId ?? this.#order;
    // The host named another order (also while a create or resume is on its way), or another method for an open
    // payment: follow the new configuration (for another method the proxy makes a new payment; the choice wins
    // over the open one).
    if (forOrder !== undefined && forOrder !== orderId) this.reset(false);
    else if (open && method && !open.final && open.method !== method) this.reset(true);
    if (this.phase !== 'idle' || this.payment || !orderId) return;
    const record = loadRecord(endpoint, orderId);
    if (record && (method ? record.method === method : methods.length === 0 || methods.includes(record.method))) {
      void this.#resume(record);
    } else if (autostart && method) {
      void this.start();
    }
  }

  /** Creates the payment (or resumes the one this tab already has for the order). Safe to call twice. */
  start(method = this.#config().method ?? this.payment?.method ?? this.#lastMethod): Promise<void> {
    if (this.#pending) return this.#pending;
    if (this.payment && !this.payment.final) return Promise.resolve();
    if (this.payment?.outcome === 'paid') return Promise.resolve();
    if (this.payment) this.reset(true); // expired or failed: start again with a new payment
    const { endpoint, orderId } = this.#config();
    if (!orderId || !method) {
      this.#fail(new PayinError('misconfigured', !orderId ? 'Set the order-id attribute.' : 'Set method or methods.'));
      return Promise.resolve();
    }
    const record = loadRecord(endpoint, orderId);
    return record?.method === method ? this.#resume(record) : this.#create(method);
  }

  /** Checks the status at once and follows again after a stall; after an error, repeats what failed. */
  refresh(): Promise<void> {
    if (this.phase === 'error') return this.retry();
    this.stalled = false;
    if (this.payment && !this.payment.final && this.tabs.leading) this.feed.follow(this.#deadline());
    return this.feed.checkNow();
  }

  /** Repeats the failed step; never creates a second payment (a create is idempotent per order and method). */
  retry(): Promise<void> {
    if (this.payment && this.#token && this.error?.retryable !== false) {
      this.#update(() => {
        this.error = undefined;
        this.phase = 'active';
      });
      this.#follow();
      return this.feed.checkNow();
    }
    const method = this.payment?.method ?? this.#lastMethod;
    this.reset(false); // keeps the remembered payment, if any: start() resumes it
    return this.start(method);
  }

  /** Forgets the payment of this order in this tab (`forget`) and goes back to the start. */
  reset(forget = true): void {
    const { endpoint, orderId } = this.#config();
    this.#run++;
    this.#abort.abort();
    this.#abort = new AbortController();
    this.#pending = undefined;
    this.feed.stop();
    this.tabs.leave();
    this.countdown.stop();
    if (forget && orderId) clearRecord(endpoint, orderId);
    this.payment = this.#token = this.error = this.trouble = this.#lastMethod = this.#order = undefined;
    this.stalled = false;
    this.phase = 'idle';
    this.#host.requestUpdate();
  }

  hostConnected(): void {
    if (this.payment && !this.payment.final && this.#token && this.phase === 'active') this.#follow();
  }

  #create(method: string): Promise<void> {
    const { endpoint, orderId, orderToken } = this.#config();
    this.#lastMethod = method;
    return this.#step('creating', async (signal) => {
      const body = orderToken ? { orderId, method, orderToken } : { orderId, method };
      const { payment, token } = await createPayment(endpoint, body, signal);
      return { payment, record: { paymentId: payment.id, token, method } };
    });
  }

  #resume(record: SessionRecord): Promise<void> {
    const { endpoint } = this.#config();
    this.#lastMethod = record.method;
    return this.#step('resuming', async (signal) => {
      const payment = await fetchStatus(endpoint, { paymentId: record.paymentId, token: record.token }, signal);
      return { payment, record };
    });
  }

  /** One create or resume: stale runs are ignored, failures become the error screen. */
  #step(
    phase: 'creating' | 'resuming',
    work: (signal: AbortSignal) => Promise<{ payment: PaymentView; record: SessionRecord }>,
  ): Promise<void> {
    const run = ++this.#run;
    const { endpoint, orderId } = this.#config();
    this.#order = orderId;
    this.#update(() => {
      this.phase = phase;
      this.error = undefined;
    });
    const done = work(this.#abort.signal).then(
      ({ payment, record }) => {
        if (run !== this.#run) return;
        saveRecord(endpoint, orderId, record);
        this.#token = record.token;
        const resumed = phase === 'resuming';
        emit(this.#host, 'payin-created', { payment, resumed });
        this.#accept(payment, resumed ? 'resume' : 'create');
        if (!payment.final) this.#follow();
      },
      (error: unknown) => {
        if (run !== this.#run || isAbort(error)) return;
        const failure = toPayinError(error);
        if (phase === 'resuming' && failure.code === 'not_found') clearRecord(endpoint, orderId);
        this.#fail(failure);
      },
    );
    this.#pending = done.finally(() => {
      if (run === this.#run) this.#pending = undefined;
    });
    return this.#pending;
  }

  /** Applies a payment if it is news: same payment, not an older state, not an older answer. */
  #accept(next: PaymentView, origin: Origin): void {
    const current = this.payment;
    if (current) {
      if (next.id !== current.id || current.final) return;
      const rank = stateRank(next.state) - stateRank(current.state);
      const older = Date.parse(next.serverTime) < Date.parse(current.serverTime);
      if (rank < 0 || (rank === 0 && older)) return;
    }
    this.payment = next;
    this.phase = 'active';
    this.stalled = false;
    if (next.final) this.countdown.stop();
    else this.countdown.set(next.expiresAt, next.serverTime);
    if (origin !== 'peer') this.tabs.share(next);
    this.#host.requestUpdate();
    const resumed = origin === 'resume';
    if (!current || current.state !== next.state) emit(this.#host, 'payin-state', { payment: next, resumed });
    if (!next.final) return;
    this.feed.stop();
    this.tabs.leave();
    const claim = claimFinalAnnouncement(this.#config().endpoint, next.id);
    if (!claim) return;
    const name = FINAL_EVENTS[next.outcome] ?? 'payin-failed';
    emit(this.#host, name, { payment: next, resumed: resumed || claim.announcedBefore });
  }

  #follow(): void {
    if (!this.payment || !this.#token || !this.#host.isConnected) return;
    this.feed.setTarget({ endpoint: this.#config().endpoint, paymentId: this.payment.id, token: this.#token });
    // Already leading (a retry after an error): follow again; else lead now or when another tab lets go.
    if (this.tabs.leading) this.feed.follow(this.#deadline());
    else this.tabs.join(this.payment.id);
  }

  /** Local epoch ms at which following gives up: a little past the expiry on the corrected clock. */
  #deadline(): number {
    const left = this.countdown.remainingMs ?? 0;
    return Date.now() + left + FOLLOW_GRACE_MS;
  }

  #setTrouble(error: PayinError | undefined): void {
    const began = error && !this.trouble;
    if (!error && !this.trouble) return;
    this.#update(() => (this.trouble = error));
    if (began) emit(this.#host, 'payin-error', error.toDetail());
  }

  #fail(error: PayinError): void {
    if (error.code === 'not_found') clearRecord(this.#config().endpoint, this.#config().orderId);
    this.#update(() => {
      this.error = error;
      this.phase = 'error';
    });
    emit(this.#host, 'payin-error', error.toDetail());
  }

  #update(change: () => unknown): void {
    change();
    this.#host.requestUpdate();
  }
}
