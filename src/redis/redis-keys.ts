/**
 * Where each piece of the proxy's state lives in Redis, in one place, so that an operator can read the layout
 * (and a test can check it) without reading every operation. Every key starts with the store's prefix, so that
 * several shops, or a test run, can share one Redis database without seeing each other's state, and every key
 * is written with an expiry, so that Redis does not grow with every order ever seen.
 */

/** How long payments, orders and committed announcements are kept after their last write: the memory store's default. */
export const DEFAULT_TTL_MS = 24 * 60 * 60 * 1000;

/** The default prefix: short, and obviously this package's when an operator lists keys. */
export const DEFAULT_KEY_PREFIX = 'payin:';

/** The announcement value while the shop's hook runs; anything else there means "committed". */
export const ANNOUNCEMENT_PENDING = 'pending';
export const ANNOUNCEMENT_COMMITTED = 'committed';

export interface RedisKeys {
  /** A string holding the owner of an order's claim (SET NX PX: it vanishes with its lease). */
  claim(orderId: string): string;
  /** A string holding the OrderRecord as JSON. */
  order(orderId: string): string;
  /** A hash: `version` (what compare-and-set compares) and `record` (the PaymentRecord as JSON). */
  payment(paymentId: string): string;
  /** A string: pending while the shop's hook runs (with the lease), committed afterwards (with the TTL). */
  announcement(paymentId: string, state: string): string;
  /** An integer (INCRBY), expiring with the caller's window. */
  counter(key: string): string;
  /** A pub/sub channel; channels are not keys, but sharing the prefix keeps two stores on one Redis apart. */
  channel(name: string): string;
}

export function redisKeys(prefix: string): RedisKeys {
  return {
    claim: (orderId) => `${prefix}claim:${orderId}`,
    order: (orderId) => `${prefix}order:${orderId}`,
    payment: (paymentId) => `${prefix}payment:${paymentId}`,
    // The state is encoded so that it holds no ':'; then payment "a:b" in state "c" and payment "a" in state
    // "b:c" cannot share a key, whatever the service's ids look like.
    announcement: (paymentId, state) => `${prefix}announce:${paymentId}:${encodeURIComponent(state)}`,
    counter: (key) => `${prefix}count:${key}`,
    channel: (name) => `${prefix}events:${name}`,
  };
}

/**
 * A duration for PX/PEXPIRE: Redis wants a positive integer, and a zero or negative expiry would delete the key
 * (or be refused) instead of keeping it briefly, which is never what a caller of the store means.
 */
export function toRedisMs(ms: number, what: string): number {
  if (!Number.isFinite(ms) || ms <= 0) throw new RangeError(`${what} must be a positive number of milliseconds, got ${ms}`);
  return Math.ceil(ms);
}
