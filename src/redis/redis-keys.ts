/**
 * Where each piece of the proxy's state lives in Redis, in one place, so that an operator can read the layout
 * (and a test can check it) without reading every operation. Every key starts with the store's prefix, so that
 * several shops, or a test run, can share one Redis database without seeing each other's state. Scratch data
 * (leases, counters, open payments and unpaid orders) is written with an expiry, so that Redis does not grow
 * with every abandoned order; what must never repeat (final payments, paid orders, announced states) is kept
 * for good. Run Redis with persistence (appendonly yes) for the ledger to survive a Redis restart.
 */

/** How long open payments and unpaid orders are kept after their last write: the memory store's default. */
export const DEFAULT_TTL_MS = 24 * 60 * 60 * 1000;

/** The default prefix: short, and obviously this package's when an operator lists keys. */
export const DEFAULT_KEY_PREFIX = 'payin:';

export interface RedisKeys {
  /** The prefix itself, for the scripts that build the console's listing keys from a payment's filters (lua-scripts.ts). */
  readonly prefix: string;
  /** A string holding the owner of a lease (SET NX PX: it vanishes with its lease). */
  lease(key: string): string;
  /** A string holding the OrderRecord as JSON. */
  order(orderId: string): string;
  /** A hash: `version` (what compare-and-set compares) and `record` (the PaymentRecord as JSON). */
  payment(paymentId: string): string;
  /** A sorted set of followed payment ids, all scored 0, so that ZRANGEBYLEX pages them in id order. */
  followed(): string;
  /** A hash per queued announcement: attempts, dueAt, heldUntil. */
  outboxEntry(paymentId: string, state: string): string;
  /** A sorted set of queued announcements (members from outboxMember), scored by when they are due or held until. */
  outbox(): string;
  /** A string set, for good, once the pair was announced. */
  announced(paymentId: string, state: string): string;
  /** An integer (INCRBY), expiring with the caller's window. */
  counter(key: string): string;
  /** A pub/sub channel; channels are not keys, but sharing the prefix keeps two stores on one Redis apart. */
  channel(name: string): string;
  // The operator console's (redis-console.ts).
  /** A sorted set per listing filter that follows from the record (all, open, paid, late, ...). */
  list(filter: string): string;
  /** A sorted set of the listing members of one order's payments. */
  listOrder(orderId: string): string;
  /** A sorted set of open payments' listing members scored by their expiry, for `stuck`. */
  openExpiry(): string;
  /** A list of a payment's timeline entries as JSON, oldest first, the newest 200. */
  history(paymentId: string): string;
  /** A list of audit entries as JSON, newest first, kept for good: of one payment, or of all. */
  audit(paymentId?: string): string;
  /** A string the health check writes (with a minute's expiry), to see that Redis takes writes. */
  health(): string;
  /** A string set once the payments written before the console's sets existed are indexed (redis-console.ts). */
  consoleIndexed(): string;
  /** A string set once the payments whose timeline noted a contradiction before the record kept its mark are marked. */
  contradictionsMarked(): string;
}

export function redisKeys(prefix: string): RedisKeys {
  return {
    prefix,
    lease: (key) => `${prefix}lease:${key}`,
    order: (orderId) => `${prefix}order:${orderId}`,
    payment: (paymentId) => `${prefix}payment:${paymentId}`,
    // The state is encoded so that it holds no ':'; then payment "a:b" in state "c" and payment "a" in state
    // "b:c" cannot share a key, whatever the service's ids look like.
    followed: () => `${prefix}followed`,
    outboxEntry: (paymentId, state) => `${prefix}outbox:${paymentId}:${encodeURIComponent(state)}`,
    outbox: () => `${prefix}outbox`,
    announced: (paymentId, state) => `${prefix}announced:${paymentId}:${encodeURIComponent(state)}`,
    counter: (key) => `${prefix}count:${key}`,
    channel: (name) => `${prefix}events:${name}`,
    // The scripts' index function (lua-scripts.ts) builds the list and list-order keys the same way, in Lua.
    list: (filter) => `${prefix}list:${filter}`,
    listOrder: (orderId) => `${prefix}list-order:${orderId}`,
    openExpiry: () => `${prefix}open-expiry`,
    history: (paymentId) => `${prefix}history:${paymentId}`,
    audit: (paymentId) => (paymentId === undefined ? `${prefix}audit` : `${prefix}audit:${paymentId}`),
    health: () => `${prefix}health`,
    consoleIndexed: () => `${prefix}console-indexed`,
    contradictionsMarked: () => `${prefix}contradictions-marked`,
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

/** The outbox's member for a pair, and back: JSON, so that any id and state round-trip. */
export const outboxMember = (paymentId: string, state: string) => JSON.stringify([paymentId, state]);
export function fromOutboxMember(member: string): [string, string] {
  return JSON.parse(member) as [string, string];
}
