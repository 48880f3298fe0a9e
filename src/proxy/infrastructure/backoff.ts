/**
 * Delays between retries of a status lookup: exponential with full jitter, so that many proxies that lost the
 * service at the same moment do not come back in lockstep. The random source is injected, so tests decide.
 */

const BASE_MS = 200;
const CAP_MS = 3_000;

/** The wait before retry number `attempt + 1`: uniform in [BASE/2, min(CAP, BASE * 2^attempt)]. */
export function backoffDelay(attempt: number, random: () => number): number {
  const ceiling = Math.min(CAP_MS, BASE_MS * 2 ** attempt);
  const floor = BASE_MS / 2;
  return Math.round(floor + random() * Math.max(0, ceiling - floor));
}
