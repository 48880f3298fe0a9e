/**
 * Whether a media query matches, kept current and re-rendering the host when it changes. The element uses it to
 * tell a phone (a coarse pointer and a narrow or low viewport), where a QR on the same screen cannot be scanned and
 * the links that open the payment app are what helps. Server-side (never connected) it simply never matches.
 */
import type { ReactiveController, ReactiveControllerHost } from 'lit';

export class MediaQueryController implements ReactiveController {
  matches = false;
  #list: MediaQueryList | undefined;

  readonly #host: ReactiveControllerHost;
  readonly #query: string;

  constructor(host: ReactiveControllerHost, query: string) {
    this.#host = host;
    this.#query = query;
    host.addController(this);
  }

  hostConnected(): void {
    this.#list = matchMedia(this.#query);
    this.matches = this.#list.matches;
    this.#list.addEventListener('change', this.#onChange);
  }

  hostDisconnected(): void {
    this.#list?.removeEventListener('change', this.#onChange);
    this.#list = undefined;
  }

  readonly #onChange = (event: MediaQueryListEvent): void => {
    this.matches = event.matches;
    this.#host.requestUpdate();
  };
}
