/**
 * Renders the host again when a `lang` attribute changes anywhere in the document: an element without its own
 * `lang` speaks its closest ancestor's or the page's (translations/pick.ts), and a shop's language switch changes
 * that attribute on the page, not on the element. Without it the texts stayed as they were until the payment next
 * changed, then switched at that moment.
 */
import type { ReactiveController, ReactiveControllerHost } from 'lit';

export class PageLanguageController implements ReactiveController {
  readonly #observer: MutationObserver;

  constructor(host: ReactiveControllerHost) {
    this.#observer = new MutationObserver(() => host.requestUpdate());
    host.addController(this);
  }

  hostConnected(): void {
    this.#observer.observe(document.documentElement, { subtree: true, attributeFilter: ['lang'] });
  }

  hostDisconnected(): void {
    this.#observer.disconnect();
  }
}
