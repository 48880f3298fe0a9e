/**
 * The countdown to a payment's expiry, on the server's clock: every answer carries `serverTime`, and the offset
 * between it and the local clock at receipt corrects a phone whose clock is minutes (or hours) off. The host
 * re-renders once per second; screen readers are told the time only while the clock shows 5, 2 or 1 minutes or
 * 30 seconds, never every second. At zero the controller asks for a status check instead of declaring the
 * payment expired: only the service decides that. Time comes from the element's clock, so tests move it.
 */
import type { ReactiveController, ReactiveControllerHost } from 'lit';
import type { Clock } from '../../shared/clock.js';

/** Seconds left at which the time is spoken, largest first. */
export const ANNOUNCE_AT = [300, 120, 60, 30] as const;

export class CountdownController implements ReactiveController {
  /** When the time is up, on the local clock (the server's expiry, corrected by its clock); undefined when stopped. */
  #end: number | undefined;
  #zeroCalled = false;
  #timer: unknown;
  readonly #host: ReactiveControllerHost & HTMLElement;
  readonly #clock: Clock;
  /** Called once when the time reaches zero. */
  readonly #onZero: () => void;

  constructor(host: ReactiveControllerHost & HTMLElement, clock: Clock, onZero: () => void) {
    this.#host = host;
    this.#clock = clock;
    this.#onZero = onZero;
    host.addController(this);
  }

  /**
   * Starts or corrects the countdown from an answer's milliseconds to the expiry, on the server's clock (its
   * `expiresAt` less its `serverTime`): a phone whose clock is off counts to the real expiry. NaN stops it.
   */
  set(toExpiryMs: number): void {
    if (Number.isNaN(toExpiryMs)) {
      this.stop();
      return;
    }
    if (this.#end === undefined) this.#zeroCalled = false;
    this.#end = this.#clock.now() + toExpiryMs;
    this.#tick();
  }

  stop(): void {
    this.#clock.clearTimeout(this.#timer);
    this.#end = undefined;
  }

  /** Milliseconds left on the server's clock, or undefined when no countdown runs. */
  get remainingMs(): number | undefined {
    return this.#end && Math.max(0, this.#end - this.#clock.now());
  }

  /**
   * The mark the clock shows, in seconds, if it shows one: what the live region says. Said while the clock shows
   * it and never later: a live region reads its text again whenever it comes back to it (after "Copied", or a lost
   * connection), and by then that time has passed.
   */
  get announcedSeconds(): number | undefined {
    const shown = Math.ceil((this.remainingMs ?? 0) / 1000);
    return ANNOUNCE_AT.find((seconds) => seconds === shown);
  }

  hostConnected(): void {
    this.#tick(); // nothing when no countdown runs
  }

  hostDisconnected(): void {
    this.#clock.clearTimeout(this.#timer);
  }

  #tick(): void {
    this.#clock.clearTimeout(this.#timer);
    const left = this.remainingMs;
    // Off the page (a route change while the payment was being created) nothing ticks: hostConnected starts again.
    if (left === undefined || !this.#host.isConnected) return;
    this.#host.requestUpdate();
    if (left > 0) {
      // Wake up just after the displayed second changes.
      this.#timer = this.#clock.setTimeout(() => this.#tick(), (left % 1000 || 1000) + 5);
    } else if (!this.#zeroCalled) {
      this.#zeroCalled = true;
      this.#onZero();
    }
  }
}
