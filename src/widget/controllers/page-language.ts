/**
 * Renders the host again when a `lang` attribute changes anywhere in the document: an element without its own
 * `lang` speaks its closest ancestor's or the page's (translations/pick.ts), and a shop's language switch changes
 * that attribute on the page, not on the element. Without it the texts stayed as they were until the payment next
 * changed, then switched at that moment. The observer is made on connection: a server that constructs the element
 * (server rendering) has no MutationObserver.
 */
import type { ReactiveController, ReactiveControllerHost } from 'lit';

export class PageLanguageController implements ReactiveController {
  #observer: MutationObserver | undefined;
  readonly #host: ReactiveControllerHost;

  constructor(host: ReactiveControllerHost) {
    this.#host = host;
    host.addController(this);
  }

  hostConnected(): void {
    this.#observer ??= new MutationObserver(() => this.#host.requestUpdate());
    this.#observer.observe(document.documentElement, { subtree: true, attributeFilter: ['lang'] });
  }

  hostDisconnected(): void {
    this.#observer?.disconnect();
  }
}
