/**
 * One follower per payment across the tabs of a browser: a shopper who opens the checkout twice must not double
 * the polling (or the rate limit). The tab that holds the Web Lock named after the payment follows it and shares
 * every state it learns on a BroadcastChannel; the other tabs listen, and take over when the leader's tab closes
 * (the lock passes to the next in line), or when it goes into the background, where a phone may suspend it (it
 * follows on by itself), as does a tab given the lead while in the background. Without Web Locks (insecure
 * origins), or refused them (a frame of another site where third-party storage is blocked), every tab follows on
 * its own, and without BroadcastChannel tabs simply do not share.
 */
import type { ReactiveController, ReactiveControllerHost } from 'lit';
import { type PaymentView, readPaymentView } from '../../shared/payment-view.js';
import { PREFIX } from '../session-store.js';

export interface TabCoordinationOptions {
  /** This tab now follows the payment. */
  onLead: () => void;
  /** Another tab learned a state. */
  onPeerPayment: (payment: PaymentView) => void;
}

export class TabCoordinationController implements ReactiveController {
  /** Whether this tab follows the joined payment. */
  leading = false;
  #channel: BroadcastChannel | undefined;
  #release: AbortController | undefined;
  #paymentId: string | undefined;

  readonly #options: TabCoordinationOptions;

  constructor(host: ReactiveControllerHost, options: TabCoordinationOptions) {
    this.#options = options;
    host.addController(this);
  }

  /** Joins the group of tabs that show this payment; leads at once or when the leader goes away. */
  join(paymentId: string): void {
    if (this.#paymentId === paymentId) return;
    this.leave();
    this.#paymentId = paymentId;
    // Without BroadcastChannel (some embedded webviews, or a page that removed it) the tabs simply do not share.
    if (typeof BroadcastChannel !== 'undefined') {
      const channel = new BroadcastChannel(PREFIX + paymentId);
      // The channel is this payment's: the flow still drops anything about another.
      channel.onmessage = (event) => {
        const payment = readPaymentView(event.data);
        if (payment) this.#options.onPeerPayment(payment);
      };
      this.#channel = channel;
    }
    // Only a connected element joins, so this runs in a browser (never in server-side rendering).
    const locks = navigator.locks;
    if (!locks) {
      this.#lead();
      return;
    }
    const release = new AbortController();
    this.#release = release;
    locks
      .request(PREFIX + paymentId, { signal: release.signal }, () => {
        if (release.signal.aborted) return undefined;
        this.#lead();
        // Held until leave(), or until the tab is hidden: the promise settles when either comes. A tab given the lead
        // in the background (the leader went there too, as the bank app opened) lets go at once, or the phone would
        // suspend it holding the lock and the tab the app opens to come back would wait on it.
        return new Promise((resolve) => {
          release.signal.onabort = resolve;
          this.#onVisibility();
        });
      })
      // Aborted while waiting in line: nothing to release. Refused (a frame of another site, where a browser that
      // blocks third-party storage answers SecurityError): as without Web Locks, this tab follows by itself, or
      // nothing follows the payment at all and the screen says "Preparing payment details…" for good.
      .catch(() => release.signal.aborted || this.#lead());
  }

  /** Tells the other tabs about a state this tab learned. */
  share(payment: PaymentView): void {
    // leave() closes the channel and forgets it, so this one is open.
    this.#channel?.postMessage(payment);
  }

  leave(): void {
    this.#release?.abort(); // aborting twice does nothing
    this.#channel?.close();
    this.#channel = undefined;
    this.#paymentId = undefined;
    this.leading = false;
  }

  hostConnected(): void {
    document.addEventListener('visibilitychange', this.#onVisibility);
  }

  hostDisconnected(): void {
    document.removeEventListener('visibilitychange', this.#onVisibility);
    this.leave();
  }

  /**
   * A leading tab that is hidden lets go of the lead, and follows on by itself. A phone suspends a tab in the
   * background with the lock it holds, and the tab the shopper looks at (the one a bank app opened to come back to
   * the shop) would wait on it for good, offering a payment already made.
   */
  readonly #onVisibility = (): void => {
    if (document.hidden && this.leading) this.#release?.abort();
  };

  #lead(): void {
    this.leading = true;
    this.#options.onLead();
  }
}
