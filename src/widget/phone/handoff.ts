/**
 * Did the tap open the app? A page cannot know (no browser tells it), but when an app opens, the page goes into
 * the background; when nothing handles the link (the app is not installed, iOS silently refuses an unknown
 * scheme) the page stays visible. So: if the page is still visible `HANDOFF_MS` after the tap and never went
 * hidden in between, the shopper is offered another app or another device. On the element's clock.
 */
import type { ReactiveController, ReactiveControllerHost } from 'lit';
import type { Clock } from '../../shared/clock.js';

export const HANDOFF_MS = 2_000;

export class HandoffController implements ReactiveController {
  /** A tap that seems not to have opened anything. */
  stuck = false;
  #timer: unknown;
  #left = false;

  readonly #host: ReactiveControllerHost;
  readonly #clock: Clock;

  constructor(host: ReactiveControllerHost, clock: Clock) {
    this.#host = host;
    this.#clock = clock;
    host.addController(this);
  }

  /** Called in the click on an app link; never delays the navigation. */
  tapped(): void {
    this.reset();
    this.#left = false;
    this.#timer = this.#clock.setTimeout(() => this.#set(!this.#left && document.visibilityState === 'visible'), HANDOFF_MS);
  }

  reset(): void {
    this.#clock.clearTimeout(this.#timer);
    this.#set(false);
  }

  hostConnected(): void {
    document.addEventListener('visibilitychange', this.#onVisibility);
  }

  hostDisconnected(): void {
    document.removeEventListener('visibilitychange', this.#onVisibility);
    this.reset();
  }

  #set(stuck: boolean): void {
    this.stuck = stuck;
    this.#host.requestUpdate(); // when nothing changed, the render finds nothing to change in the DOM
  }

  readonly #onVisibility = (): void => {
    if (document.visibilityState === 'hidden') {
      this.#left = true;
      this.#set(false);
    }
  };
}
