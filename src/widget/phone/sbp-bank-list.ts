/**
 * Loads the SBP member list for the bank chooser when the element first needs it, with an AbortSignal that the
 * element's disconnection aborts (a stale answer for another endpoint is dropped). A failure leaves the chooser
 * out: the phone number and the QR still work, so the shopper is not told about it. On a poor network that failure
 * is often a dropped connection, so the list is asked for again when the network or the shopper comes back (back
 * online, or the page shown again), not on every render: a proxy that serves no list is not asked every second.
 */
import type { ReactiveController, ReactiveControllerHost } from 'lit';
import type { SbpBank } from './deep-links.js';
import { loadSbpBanks } from './sbp-banks.js';

export class SbpBankListController implements ReactiveController {
  /** The list, once loaded. */
  banks: SbpBank[] | undefined;
  #endpoint: string | undefined;
  #abort: AbortController | undefined;
  /** The last load failed: the next `again` starts another. */
  #failed = false;

  readonly #host: ReactiveControllerHost;

  constructor(host: ReactiveControllerHost) {
    this.#host = host;
    host.addController(this);
  }

  /** Starts loading the list of `endpoint`, unless it is loaded or on its way. */
  want(endpoint: string): void {
    if (this.#endpoint === endpoint) return;
    this.#abort?.abort();
    const abort = new AbortController();
    this.#abort = abort;
    this.#endpoint = endpoint;
    this.banks = undefined;
    loadSbpBanks(endpoint, abort.signal).then(
      (banks) => {
        if (abort.signal.aborted) return;
        this.banks = banks;
        this.#host.requestUpdate();
      },
      () => {
        // Aborted, or no list: the chooser stays out and the requisites carry the payment, until `again`.
        if (!abort.signal.aborted) this.#failed = true;
      },
    );
  }

  hostConnected(): void {
    window.addEventListener('online', this.#again);
    document.addEventListener('visibilitychange', this.#again);
  }

  hostDisconnected(): void {
    window.removeEventListener('online', this.#again);
    document.removeEventListener('visibilitychange', this.#again);
    this.#abort?.abort();
    this.#endpoint = undefined;
  }

  /** The network or the shopper is back (or leaves: one request more), after a failure: the next render asks again. */
  readonly #again = (): void => {
    if (!this.#failed) return;
    this.#failed = false;
    this.#endpoint = undefined;
    this.#host.requestUpdate();
  };
}
