/**
 * When to ask the proxy again, as one pure function so that its rules can be tested without waiting: the poll
 * interval with +-20 % jitter (so that many open checkouts do not hit the proxy in step); a slow safety poll
 * while the event stream is open; slower again in a hidden tab; and after failures an exponential backoff with
 * full jitter, capped, and never earlier than a 429's Retry-After.
 */

/** How often to check while the event stream is open and healthy. */
export const SAFETY_POLL_MS = 15_000;
/** A hidden tab checks at most this often (the shopper is in the bank app; coming back checks at once). */
export const HIDDEN_MIN_MS = 15_000;
export const HIDDEN_FACTOR = 4;
export const BACKOFF_CAP_MS = 30_000;

export interface DelayInput {
  /** The poll interval (the `poll-interval` attribute). */
  interval: number;
  /** Consecutive failed checks. */
  failures: number;
  hidden: boolean;
  streamOpen: boolean;
  retryAfterMs?: number;
  /** 0 <= random() < 1; injectable for tests. */
  random?: () => number;
}

export function nextDelay({ interval, failures, hidden, streamOpen, retryAfterMs = 0, random = Math.random }: DelayInput): number {
  const base = Math.max(250, interval);
  if (failures > 0) {
    // 2 ** failures may reach Infinity, and the cap still holds.
    const ceiling = Math.min(BACKOFF_CAP_MS, base * 2 ** failures);
    const jittered = ceiling / 2 + (random() * ceiling) / 2;
    return Math.round(Math.max(jittered, retryAfterMs));
  }
  let delay = streamOpen ? Math.max(SAFETY_POLL_MS, base) : base;
  if (hidden) delay = Math.max(HIDDEN_MIN_MS, delay * HIDDEN_FACTOR);
  return Math.round(delay * (0.8 + random() * 0.4));
}
