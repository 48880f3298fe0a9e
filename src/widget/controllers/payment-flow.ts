/**
 * The checkout's one source of truth: which payment is shown, how it was obtained (created, or resumed after a
 * reload from session-store.ts without a second create), which answers count (never an older state over a newer
 * one, never another payment's), and which events fire. Its state is one immutable object (`state`), replaced on
 * every change as Lit's Task does, so that a screen is a function of one value. Following is delegated: the
 * countdown, the status feed and the coordination between tabs are controllers of their own; this one wires them
 * and decides. After the expiry it keeps checking for a grace window (a payment made in the last minute is often
 * confirmed late) and holds back an "expired" that arrives in that window, so that nobody is invited to pay a
 * second time while the first payment may still arrive. Time comes from an injectable clock.
 */
import type { ReactiveController, ReactiveControllerHost } from 'lit';
import type { Clock } from '../../shared/clock.js';
import { stateRank } from '../../shared/outcome.js';
import type { PaymentView } from '../../shared/payment-view.js';
import { callProxy, PayinError, type PaymentRead, toPayinError } from '../api-client.js';
import { emit } from '../events.js';
import { claimFinalAnnouncement, clearRecord, loadRecord, saveRecord, sessionKey } from '../session-store.js';
import { CountdownController } from './countdown.js';
import { StatusFeedController } from './status-feed.js';
import { TabCoordinationController } from './tab-coordination.js';

/** The event a final outcome fires, once per page and payment: `payin-` and the outcome. */
type FinalEvent = `payin-${'paid' | 'underpaid' | 'superseded' | 'expired' | 'failed'}`;

/**
 * The grace window after the expiry: following goes on this long without a final state ("Check again" follows
 * again as long), and an "expired" that the service answers in this window is shown as "still checking" until it ends.
 */
export const FOLLOW_GRACE_MS = 5 * 60_000;

export type Phase = 'idle' | 'creating' | 'resuming' | 'active' | 'error';

/** Everything the screens read, replaced as a whole on every change. */
export interface FlowState {
  readonly phase: Phase;
  /** The payment shown, if any. */
  readonly payment?: PaymentView;
  /** What stopped the flow (shown as a screen with a retry). */
  readonly error?: PayinError;
  /** A failing connection while following (shown as a notice; the feed retries by itself). */
  readonly trouble?: PayinError;
  /** The follow deadline passed without a final state, and nothing follows the payment until refresh(). */
  readonly stalled?: boolean;
  /** The time is up (or the service said "expired" within the grace window): still checking, nothing to pay. */
  readonly late?: boolean;
}

const IDLE: FlowState = { phase: 'idle' };

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
  readonly countdown: CountdownController;
  readonly feed: StatusFeedController;
  readonly tabs: TabCoordinationController;
  /** The shown payment's id and read token, one object per payment (the status feed keeps its target by it). */
  #read: PaymentRead | undefined;
  #abort = new AbortController();
  #pending: Promise<void> | undefined;
  /**
   * The method and the order of the last create or resume (in flight, failed, or whose payment is shown); the
   * order as its session key, so that it names the endpoint too.
   */
  #lastMethod: string | undefined;
  #order: string | undefined;
  #state: FlowState = IDLE;
  #graceTimer: unknown;
  /** The payment whose grace window is over: its "expired" is final now. */
  #graceOver: string | undefined;
  /** Whether the last final state was found after a reload: what its event says when it is announced late. */
  #finalResumed = false;

  readonly #host: ReactiveControllerHost & HTMLElement;
  readonly #config: () => FlowConfig;
  readonly #clock: Clock;

  constructor(host: ReactiveControllerHost & HTMLElement, config: () => FlowConfig, clock: Clock) {
    this.#host = host;
    this.#config = config;
    this.#clock = clock;
    this.countdown = new CountdownController(host, clock, () => {
      if (!this.#state.payment?.final) this.#set({ late: true });
      void this.feed.checkNow();
    });
    this.feed = new StatusFeedController(host, {
      clock,
      onPayment: (p) => this.#accept(p),
      onTrouble: (e) => (e?.retryable === false ? this.#fail(e) : this.#setTrouble(e)),
      // A held "expired" ends with its grace timer; anything else not final by now is stalled.
      onDeadline: () => !this.#state.payment?.final && this.#set({ stalled: true }),
      pollInterval: () => this.#config().pollInterval,
      // Back online after a create or resume failed for want of a connection: repeated at once, as "Try again"
      // would (never a second payment). The feed checks a followed payment then, but nothing repeated a failed
      // create, and the screen said "No connection" to a shopper out of the tunnel until they tapped again.
      onOnline: () => this.#state.error?.code === 'network_error' && void this.retry(),
    });
    this.tabs = new TabCoordinationController(host, {
      onLead: () => this.feed.follow(this.#deadline()),
      onPeerPayment: (p) => this.#accept(p, false, true),
    });
    host.addController(this); // after the controllers it drives, so that they are connected first
  }

  /** The flow as the screens see it (a new object after every change). */
  get state(): FlowState {
    return this.#state;
  }

  /** The payment shown, if any. */
  get payment(): PaymentView | undefined {
    return this.#state.payment;
  }

  /** A payment is shown that may still change: not final, or final but held back in the grace window. */
  get #unsettled(): boolean | undefined {
    const { payment, late } = this.#state;
    return payment && (!payment.final || late);
  }

  /** Resumes a remembered payment, or autostarts; called whenever the configuration may have changed. */
  sync(): void {
    const { endpoint, orderId, methods, autostart, method } = this.#config();
    const open = this.payment;
    // The host named another order or endpoint (also while a create or resume is on its way: an app that sets the
    // endpoint from a configuration it loads), or another method than the open payment's, or the one being created
    // or resumed, or the one that failed: follow the new configuration (for another method the proxy makes a new
    // payment; the choice wins over the open one). Only for an open payment, a create's answer for the old method
    // was shown over the new attribute, and "Try again" asked for the old method again.
    if (this.#order !== undefined && this.#order !== sessionKey(endpoint, orderId)) this.reset(false);
    else if (method && this.#lastMethod && this.#lastMethod !== method && !open?.final) this.reset(true);
    if (this.#state.phase !== 'idle' || this.payment || !orderId) return;
    // The payment this tab has for the order, when it is for the method asked (or one offered): start() resumes it.
    const remembered = loadRecord(endpoint, orderId)?.method;
    if (remembered && (method ? remembered === method : methods.length === 0 || methods.includes(remembered))) {
      void this.start(remembered);
    } else if (autostart && method) {
      void this.start();
    }
  }

  /**
   * Creates the payment, or resumes the one this tab already has for the order and method (reads its status
   * with the remembered token). Safe to call twice. An answer after a reset() (which aborts its signal) is
   * ignored; a failure becomes the error screen.
   */
  async start(method = this.#config().method ?? this.#lastMethod): Promise<void> {
    if (this.#pending) return this.#pending;
    const open = this.payment;
    // Not while the payment may still arrive (after the expiry the grace window ends first), nor once paid.
    if (this.#unsettled || open?.outcome === 'paid') return;
    if (open) this.reset(true); // expired or failed: start again with a new payment
    const { endpoint, orderId, orderToken } = this.#config();
    if (!orderId || !method) {
      return this.#fail(new PayinError('misconfigured', !orderId ? 'Set the order-id attribute.' : 'Set method or methods.'));
    }
    const remembered = loadRecord(endpoint, orderId);
    const record = remembered?.method === method ? remembered : undefined;
    const resumed = !!record;
    const { signal } = this.#abort;
    this.#lastMethod = method;
    this.#order = sessionKey(endpoint, orderId);
    this.#set({ phase: resumed ? 'resuming' : 'creating', error: undefined });
    // JSON.stringify leaves out an orderToken that is undefined.
    const body = record ? { paymentId: record.paymentId, token: record.token } : { orderId, method, orderToken };
    this.#pending = callProxy(endpoint, record ? 'status' : 'payments', body, signal, this.#clock)
      .then(
        ({ payment, token }) => {
          if (signal.aborted) return;
          const read = { paymentId: payment.id, token: record?.token ?? token };
          this.#read = read;
          saveRecord(endpoint, orderId, { ...read, method });
          emit(this.#host, 'payin-created', { payment, resumed });
          this.#accept(payment, resumed);
          if (this.#unsettled) this.#follow();
        },
        // Aborted only by reset(), which starts anew. A payment the proxy does not know is forgotten by #fail().
        (error: unknown) => {
          if (!signal.aborted) this.#fail(toPayinError(error));
        },
      )
      .finally(() => {
        if (!signal.aborted) this.#pending = undefined;
      });
    return this.#pending;
  }

  /** Checks the status at once and follows again after a stall; after an error, repeats what failed. */
  refresh(): Promise<void> {
    if (this.#state.phase === 'error') return this.retry();
    this.#set({ stalled: false });
    if (this.#unsettled) this.#follow();
    return this.feed.checkNow();
  }

  /** Repeats the failed step; never creates a second payment (a create is idempotent per order and method). */
  retry(): Promise<void> {
    if (this.payment && this.#state.error?.retryable !== false) {
      this.#set({ error: undefined, phase: 'active' });
      return this.refresh();
    }
    const method = this.#lastMethod;
    this.reset(false); // keeps the remembered payment, if any: start() resumes it
    return this.start(method);
  }

  /** Forgets the payment of this order in this tab (`forget`) and goes back to the start. */
  reset(forget = true): void {
    const { endpoint, orderId } = this.#config();
    this.#abort.abort();
    this.#abort = new AbortController();
    this.#pending = undefined;
    this.feed.stop();
    this.tabs.leave();
    this.countdown.stop();
    this.#clock.clearTimeout(this.#graceTimer);
    if (forget && orderId) clearRecord(endpoint, orderId);
    this.#read = this.#lastMethod = this.#order = undefined;
    this.#state = IDLE;
    this.#host.requestUpdate();
  }

  hostConnected(): void {
    if (this.#unsettled && this.#state.phase === 'active') this.#follow();
    // A final state is announced once per page, so this announces only one learned off the page.
    else if (this.payment?.final) this.#finish(this.payment, this.#finalResumed);
  }

  /**
   * Applies a payment if it is news: same payment, not an older state, not an older answer. `resumed`: found so
   * after a reload (its events say so); `fromPeer`: told by another tab, so not shared back.
   */
  #accept(next: PaymentView, resumed = false, fromPeer = false): void {
    const { payment: current, late } = this.#state;
    if (current) {
      // A final payment changes no more, except one held back in the grace window, by a final state.
      if (next.id !== current.id || (current.final && !(late && next.final))) return;
      const rank = stateRank(next.state) - stateRank(current.state);
      if (rank < 0 || (!rank && Date.parse(next.serverTime) < Date.parse(current.serverTime))) return;
    }
    // An "expired" from the service at or after the expiry, within the grace window: held as "still checking".
    const since = Date.parse(next.serverTime) - Date.parse(next.expiresAt);
    const hold = next.outcome === 'expired' && this.#graceOver !== next.id && since >= -1000 && since < FOLLOW_GRACE_MS;
    // `stalled` stays: an answer to a single check (the shopper back in the tab, or online) follows nothing again, and
    // the notice's "Check again" is then the way to follow on.
    this.#set({ payment: next, phase: 'active', late: hold || (!next.final && since >= 0) });
    if (hold || !next.final) this.countdown.set(-since);
    else this.countdown.stop();
    if (!fromPeer) this.tabs.share(next);
    if (!current || current.state !== next.state) emit(this.#host, 'payin-state', { payment: next, resumed });
    if (hold) {
      this.#clock.clearTimeout(this.#graceTimer);
      this.#graceTimer = this.#clock.setTimeout(() => void this.#endGrace(next.id, resumed), FOLLOW_GRACE_MS - since);
    } else if (next.final) this.#finish(next, resumed);
  }

  /** The grace window of a held "expired" is over: one last check, then it is final (and shared with the other tabs). */
  async #endGrace(id: string, resumed: boolean): Promise<void> {
    if (this.tabs.leading) await this.feed.checkNow();
    // Still held (a payment held back is final, and only a final state replaces it; reset() clears the timer).
    const { payment, late } = this.#state;
    if (payment?.id !== id || !late) return;
    this.#graceOver = id;
    this.#accept(payment, resumed);
  }

  /** A final state: following ends and its event fires, once per page. */
  #finish(payment: PaymentView, resumed: boolean): void {
    this.feed.stop();
    this.tabs.leave();
    // Off the page (removed by a route change while the answer was on its way) the event would reach no listener,
    // and its claim would keep the element the app shows instead from announcing the payment: hostConnected() says
    // it once this element is back on a page.
    this.#finalResumed = resumed;
    if (!this.#host.isConnected) return;
    const before = claimFinalAnnouncement(this.#config().endpoint, payment.id);
    if (before === undefined) return;
    // Only a final payment gets here, so its outcome is one of the five.
    emit(this.#host, `payin-${payment.outcome}` as FinalEvent, { payment, resumed: resumed || before });
  }

  #follow(): void {
    if (!this.payment || !this.#read || !this.#host.isConnected) return;
    this.feed.setTarget(this.#config().endpoint, this.#read);
    // Already leading (a retry after an error): follow again; else lead now or when another tab lets go.
    if (this.tabs.leading) this.feed.follow(this.#deadline());
    else this.tabs.join(this.payment.id);
  }

  /**
   * Local epoch ms at which following gives up: the end of the grace window on the corrected clock, or, once that
   * is past ("Check again", a reload, a lead taken over), a grace window from now. Counted from the expiry then,
   * following ended at once, and a payment still being checked was checked once and never again.
   */
  #deadline(): number {
    return this.#clock.now() + (this.countdown.remainingMs ?? 0) + FOLLOW_GRACE_MS;
  }

  #setTrouble(error: PayinError | undefined): void {
    const had = this.#state.trouble;
    if (error || had) this.#set({ trouble: error });
    if (error && !had) emit(this.#host, 'payin-error', error.toDetail());
  }

  #fail(error: PayinError): void {
    const { endpoint, orderId } = this.#config();
    if (error.code === 'not_found') clearRecord(endpoint, orderId);
    // Following has ended here (the feed stopped itself): let go of the lead, so that another tab of the payment
    // follows it and hears the same (an order paid by another payment, say) instead of waiting for this one.
    this.tabs.leave();
    this.#set({ error, phase: 'error' });
    emit(this.#host, 'payin-error', error.toDetail());
  }

  #set(change: Partial<FlowState>): void {
    this.#state = { ...this.#state, ...change };
    this.#host.requestUpdate();
  }
}
