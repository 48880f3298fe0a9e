/**
 * The payment service's clock as this proxy knows it. The service writes `expired_at` on its own clock, and the
 * browser counts down `expiresAt - serverTime`: stamped with the shop server's clock instead, a service ten minutes
 * ahead gave a 15-minute payment a 25-minute countdown, and the shopper paid an expired payment in the last ten.
 * Every Payment the service answers carries `datetime`, the time of its answer (Unix seconds); the difference from
 * this clock at the moment of the call is how far the service's clock is ahead. Within `TOLERANCE_MS` nothing is
 * corrected: the whole seconds of `datetime` and the time of the call itself make smaller differences noise, and
 * the answers' `serverTime` must not jitter (the browser orders answers of one state by it). Each instance learns
 * it from its own calls; until its first, it believes its own clock, as it did before.
 *
 * The offset is the median of the last few answers', not the last one's: one answer far from the rest (an old
 * signed answer replayed, a garbled `datetime`, one node of the service whose clock is off) would otherwise move
 * every `serverTime` after it, so that an open checkout showed its payment expired while it could still be paid
 * (the browser then drops the right answers as older) and a payment confirmed meanwhile was listed as paid late.
 * A clock the service really set right is followed once most of the recent answers say so.
 */
import type { Clock } from '../../shared/clock.js';
import { parseTimestamp } from '../../shared/timestamps.js';

/** Differences up to this are left alone: `datetime` is in whole seconds, and a call takes time. */
export const TOLERANCE_MS = 2_000;

/** Differences this large are not believed (see `heard`). */
const BELIEVABLE_MS = 24 * 60 * 60_000;

/** The answers whose median is believed: two of them far from the rest move nothing. */
export const SAMPLES = 5;

export class ServiceClock {
  /** How far the service's clock is ahead of `clock` (negative: behind). */
  #aheadMs = 0;
  /** What the last answers (up to SAMPLES) said of it, oldest first. */
  readonly #heard: number[] = [];

  constructor(private readonly clock: Clock) {}

  /** The service's time now, as far as this proxy can tell: what `serverTime` says beside its `expiresAt`. */
  now(): number {
    return this.clock.now() + this.#aheadMs;
  }

  /** A time on the service's clock (an expiry), on this proxy's clock: what the proxy's own timers compare. */
  toLocal(serviceMs: number): number {
    return serviceMs - this.#aheadMs;
  }

  /**
   * An answer of the service stamped `datetime`, to a call sent at `sentAt` and answered at `receivedAt` (this
   * clock). The service wrote it in between, floored to its second: the middle of that span is the estimate.
   */
  heard(datetime: unknown, sentAt: number, receivedAt: number): void {
    const stamped = parseTimestamp(datetime);
    if (stamped === undefined) return;
    const ahead = stamped + 500 - (sentAt + receivedAt) / 2;
    // More than a day apart is no clock of a running service but a `datetime` in other units (milliseconds read as
    // seconds: tens of thousands of years) or a garbled one; believed, every countdown would read expired at once.
    if (Math.abs(ahead) > BELIEVABLE_MS) return;
    if (this.#heard.push(ahead) > SAMPLES) this.#heard.shift();
    const median = this.#median();
    if (Math.abs(median - this.#aheadMs) > TOLERANCE_MS) this.#aheadMs = Math.abs(median) > TOLERANCE_MS ? Math.round(median) : 0;
  }

  /**
   * The middle of what was heard; of an even count's two middles (the second and fourth answers after a start), the
   * one nearer this proxy's own clock: an answer far off is the likelier stray, whichever of the two came first.
   */
  #median(): number {
    const sorted = [...this.#heard].sort((a, b) => a - b);
    const middle = sorted.length >> 1;
    if (sorted.length % 2) return sorted[middle]!;
    const [low, high] = [sorted[middle - 1]!, sorted[middle]!];
    return Math.abs(low) <= Math.abs(high) ? low : high;
  }
}

/** The `datetime` of an answer: of the Payment it is, or of the first of those it lists. */
export function answerDatetime(answer: unknown): unknown {
  const payment = Array.isArray(answer) ? answer[0] : answer;
  return payment && typeof payment === 'object' ? (payment as { datetime?: unknown }).datetime : undefined;
}
