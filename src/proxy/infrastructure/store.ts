/**
 * The proxy's state, behind an asynchronous interface so that several proxy instances can share it (the memory
 * store serves one process, SQLite one durable process, Redis many). Each operation is one that must be atomic
 * across instances: holding a lease (an order while its payment is created, the reconcile sweep), writing a
 * payment only over the version that was read (so that an older state never overwrites a newer one), the outbox
 * of announcements to the shop, counting requests in a window, and fanning state changes out to event streams.
 *
 * Only the ledger writes payments, orders and announcements. What must never repeat is never evicted by a
 * time to live or by volume: paid orders (`paidBy`), committed announcements, and payment records that are
 * final. Only scratch data of unfinished work expires: leases, counters, and records of open payments untouched
 * for a time to live that runs from their last write or from the end of their follow window (`followUntil`),
 * whichever is later, so that reconciliation never loses one it still follows (documented per store).
 */
import type { PaymentView } from '../../shared/payment-view.js';

/**
 * The browser's view as stored: `serverTime` (and `qrMatrix`, http/qr-matrix-answer.ts) are added when
 * answering; the two timestamps may still be missing.
 */
export type StoredView = Omit<PaymentView, 'serverTime' | 'createdAt' | 'expiresAt' | 'qrMatrix'> & {
  createdAt?: string;
  expiresAt?: string;
};

export interface PaymentRecord {
  view: StoredView;
  /**
   * What the shop's resolveOrder priced when the payment was created (for a payment adopted from the service,
   * its `init_amount`). The payment is `paid` only when the paid amount covers this, else `underpaid`.
   */
  priced: { amount: string; currency: string };
  /** Starts at 1 and grows by one with each change of the view: the event-stream id and the compare-and-set guard. */
  version: number;
  /** Epoch milliseconds of the last change. */
  updatedAt: number;
  /**
   * Epoch milliseconds until which reconciliation keeps asking the service about this payment (its expiry plus
   * a grace window for late payments); absent once nothing more is expected. The store keeps an index of the
   * payments that have it, for `followedPayments`.
   */
  followUntil?: number;
  /** Epoch ms when the ledger first recorded the payment: the console lists newest first by it. */
  listedAt?: number;
  /**
   * Epoch ms when the view first became final, on the service's clock as the expiry is (a payment paid after its
   * expiry is `late` in the console).
   */
  finalAt?: number;
  /** Set when this payment paid an order that another payment (this id) had paid already: a refund to do. */
  secondPaymentOf?: string;
  /**
   * Set once, by an operator in the console, on a second payment whose refund was done at the payment service
   * (outside this product): who said so, when, and the refund's reference there. Never cleared.
   */
  refunded?: RefundMark;
  /**
   * Set when the service, asked afresh, contradicted the final state the shop was told
   * (use-cases/final-contradiction.ts): the newest state it said, when that was first confirmed and, once the service
   * agreed with the final state again, when. The view does not change for it; the console lists the payment as a
   * contradiction to look into until an operator marks that contradiction resolved.
   */
  contradicted?: ContradictionMark;
  /**
   * Set by an operator in the console once the contradiction was dealt with at the service (a refund made, the
   * goods shipped, a dispute answered): who, when, a note, and the contradiction it answers. A later contradiction,
   * of another state or of the same one after it ended (a dispute opened again), is work again.
   */
  contradictionResolved?: ResolutionMark;
}

/** What the service said against a final state (ledger/contradiction-marks.ts). */
export interface ContradictionMark {
  /** Epoch ms (this proxy's clock) when it was first confirmed. */
  at: number;
  state: string;
  /**
   * When the service, asked afresh, said the final state the shop was told once more (a dispute it closed): the
   * same contradiction after this is a new one (a dispute opened again), not a callback of the old one delivered again.
   */
  endedAt?: number;
}

/** An operator's word that a second payment was refunded (console-api/console-actions.ts). */
export interface RefundMark {
  /** Epoch ms when it was marked. */
  at: number;
  operator: string;
  /** The refund's reference at the service, as the operator gave it (at most 100 characters). */
  reference?: string;
}

/** An operator's word that a contradicted payment was dealt with (console-api/resolve-action.ts). */
export interface ResolutionMark {
  /** Epoch ms when it was marked. */
  at: number;
  operator: string;
  /** The contradicted state it answers (`contradicted.state` when marked). */
  state: string;
  /**
   * The `at` of the contradiction it answers: a later one of the same state (a dispute opened again) is work again.
   * Left out by the marks of the release before.
   */
  contradictedAt?: number;
  /** What the operator did, in their words (at most NOTE_MAX, 200 characters: console-api/resolve-action.ts). */
  note?: string;
}

/**
 * How much longer than its last write an open payment is still followed: its time to live runs from the end of its
 * follow window, so that one payable for days (a bank transfer) is not dropped while reconciliation asks about it.
 */
export function followedFor(record: PaymentRecord, now: number): number {
  return Math.max(0, (record.followUntil ?? now) - now);
}

export interface OrderPaymentRef {
  id: string;
  method: string;
}

/** The payments created for one order, oldest first. Written only by the holder of the order's lease. */
export interface OrderRecord {
  orderId: string;
  payments: OrderPaymentRef[];
  /**
   * A create asked the service and its payment is not recorded (yet): no answer came, or the store failed after it.
   * Look the order up at the service before creating another payment.
   */
  uncertain?: boolean;
  /**
   * The payment that paid this order first. Set once, never cleared: a create for the order is refused from
   * then on, and any other payment of it that is paid reaches the hook marked as a second payment.
   */
  paidBy?: string;
}

/** One announcement waiting in the outbox: the shop's hook has not yet succeeded for this payment and state. */
export interface OutboxEntry {
  paymentId: string;
  state: string;
  /** Failed deliveries so far (0 for a new entry). */
  attempts: number;
  /** Epoch milliseconds from which the entry may be delivered (again). */
  dueAt: number;
}

/**
 * The console's operations (listing, counts, timelines, the audit log) are declared in console-store.ts, as one
 * block: optional here, implemented by the memory, SQLite, Redis and PostgreSQL stores.
 */
export interface ProxyStore extends Partial<ConsoleStore> {
  /**
   * Takes the lease `key` for `owner` unless someone else holds a live one. The lease lapses after `leaseMs`, so
   * a holder that crashed half-way never locks it for good. True when the caller now holds it. The ledger uses
   * `order:<orderId>` while it creates a payment, and `sweep` for one reconcile sweep across instances.
   */
  claim(key: string, owner: string, leaseMs: number): Promise<boolean>;
  /** Gives the lease back, but only if `owner` still holds it. */
  release(key: string, owner: string): Promise<void>;
  /**
   * Holds the lease `key` for another `leaseMs` from now, but only if `owner` still holds a live one; true when it
   * does. A create renews its order's lease while it waits for a slow service, so that the lease lapses only for a
   * create that crashed. A store without it leaves a create that outlives `claimLeaseMs` open to a second one.
   */
  extend?(key: string, owner: string, leaseMs: number): Promise<boolean>;

  getOrder(orderId: string): Promise<OrderRecord | undefined>;
  /** Written only by the holder of the order's lease, so a plain write is enough. */
  putOrder(order: OrderRecord): Promise<void>;

  /**
   * The stored record. No change made to it may reach the store: hand out a copy (what a read from a database
   * is), or a record frozen to its last nested object (the memory store shares one per version).
   */
  getPayment(id: string): Promise<PaymentRecord | undefined>;
  /**
   * Optional: the same read answered at once, for a store whose records live in this process (the memory store).
   * A status poll of a final payment then waits for nothing (see maybe-async.ts). A store that has it answers
   * exactly what getPayment would, with the same rule about changes.
   */
  getPaymentNow?(id: string): PaymentRecord | undefined;
  /**
   * Writes the record only when the stored version is `expectedVersion` (0: nothing stored yet). False when
   * another writer came first: read again, merge again, try again. Keeps the follow index in step with
   * `record.followUntil`.
   */
  putPayment(record: PaymentRecord, expectedVersion: number): Promise<boolean>;
  /**
   * Optional: putPayment and enqueueAnnouncement(record.view.id, record.view.state, dueAt) as one atomic write,
   * for a store whose process may die between two writes while another carries on (PostgreSQL, Redis, SQLite).
   * Without it a crash between the two leaves a state recorded that nobody will announce. True when the payment
   * was written; the announcement is then queued unless it was queued or announced before. Nothing is written
   * when the version moved.
   */
  putPaymentAndEnqueue?(record: PaymentRecord, expectedVersion: number, dueAt: number): Promise<boolean>;
  /**
   * Ids of payments with a `followUntil`, in id order, at most `limit`, starting after `afterId` (paging for a
   * sweep that cannot hold them all at once).
   */
  followedPayments(limit: number, afterId?: string): Promise<string[]>;

  /**
   * Puts (payment, state) in the outbox, due at `dueAt`. False, and nothing changes, when it is already in the
   * outbox or was announced (committed) before: a state is queued at most once, whatever path found it.
   */
  enqueueAnnouncement(paymentId: string, state: string, dueAt: number): Promise<boolean>;
  /**
   * Outbox entries due at `now` (dueAt <= now) that nobody holds at this moment, oldest due first, at most `limit`.
   * Held is measured at the store's present, not at `now`: the outbox asks for the next entry of all (due at the end
   * of time) to set its retry timer, and a held one would wake it at once, again and again, while its hook runs.
   */
  dueAnnouncements(now: number, limit: number): Promise<OutboxEntry[]>;
  /**
   * Takes an outbox entry for delivery: the entry for exactly one caller, until it commits or reschedules or the
   * lease lapses (a deliverer that crashed). Undefined when the entry is held, or not in the outbox at all.
   */
  claimAnnouncement(paymentId: string, state: string, leaseMs: number): Promise<OutboxEntry | undefined>;
  /**
   * The deliverer is still at work (its hook has not answered yet): the held entry's lease runs until `leaseMs`
   * from now. False, and nothing changes, when the entry is not held (its lease lapsed) or is gone. The outbox
   * calls it every third of the lease while a hook runs, so a slow hook is never called a second time beside it.
   */
  extendAnnouncement(paymentId: string, state: string, leaseMs: number): Promise<boolean>;
  /** The hook succeeded: the entry leaves the outbox and (payment, state) is remembered as announced, for good. */
  commitAnnouncement(paymentId: string, state: string): Promise<void>;
  /**
   * The hook failed: the claim is given back, `attempts` grows by one and the entry is due again at `dueAt`. With
   * `failed` false the hook was not called (a create on some instance holds the order the paid state settles), and
   * `attempts` stays as it is: a wait is no failure, to count in the console's `failing` or in the backoff of the
   * next real one. A store written before the argument existed counts it all the same.
   */
  rescheduleAnnouncement(paymentId: string, state: string, dueAt: number, failed?: boolean): Promise<void>;
  /** True once (payment, state) was committed. */
  wasAnnounced(paymentId: string, state: string): Promise<boolean>;

  /** Adds `delta` to a counter and returns the new value; the counter expires `ttlMs` after this call. */
  count(key: string, delta: number, ttlMs: number): Promise<number>;
  /** Optional: count() answered at once, for a store whose counters live in this process (memory, SQLite). */
  countNow?(key: string, delta: number, ttlMs: number): number;

  publish(channel: string, message: string): Promise<void>;
  /** Resolves once the subscription is live; call the returned function to end it. */
  subscribe(channel: string, listener: (message: string) => void): Promise<() => Promise<void>>;

  /**
   * Optional: resolves when the store can be read and written now, rejects (with the store's own words) when it
   * cannot. One cheap round trip (PostgreSQL `SELECT 1`, Redis `PING`, a read of the SQLite file). Health checks
   * call it (store-health.ts) under their own timeout; a store without it is reported as not checked.
   */
  ping?(): Promise<void>;

  /** Lets go of connections and files. The proxy never calls it: whoever made the store closes it. */
  close?(): Promise<void>;
}

// ---------------------------------------------------------------------------------------------------------------
// The operator console's operations: one block, optional on ProxyStore, implemented by the memory, SQLite, Redis
// and PostgreSQL stores and run by the shared contract suite. Helpers (the filters a record falls under, cursors) are in
// console-store.ts.
// ---------------------------------------------------------------------------------------------------------------

export const CONSOLE_FILTERS = [
  'all',
  'open',
  'paid',
  'late',
  'underpaid',
  'superseded',
  'expired',
  'failed',
  'second',
  'refunded',
  'contradicted',
  'resolved',
  'failing',
  'stuck',
] as const;
export type ConsoleFilter = (typeof CONSOLE_FILTERS)[number];

export interface PaymentQuery {
  filter: ConsoleFilter;
  /** Only the payments of this order. */
  orderId?: string;
  /** From `next` of the page before. */
  cursor?: string;
  /** At most this many (1..200). */
  limit: number;
  /** Epoch ms: what `stuck` is measured against. */
  now: number;
}

export interface PaymentPage {
  payments: PaymentRecord[];
  /** The cursor of the next page; absent on the last one. */
  next?: string;
}

/** One line of a payment's timeline, as the ledger and its outbox saw it. */
export type HistoryEntry =
  | { at: number; kind: 'state'; state: string; outcome: string; source: string }
  | { at: number; kind: 'announcement'; state: string; ok: boolean; error?: string; redelivery?: boolean; attempt?: number }
  /**
   * The service now says `state` (with `amount` in `currency`, when it said one) about a final payment the shop was
   * told was `recorded` (`outcome`): nothing changed and nothing was announced (use-cases/final-contradiction.ts).
   */
  | { at: number; kind: 'contradiction'; state: string; amount?: string; currency?: string; recorded: string; outcome: string };

/** One operator action: who, what, when, on which payment. */
export interface AuditEntry {
  at: number;
  operator: string;
  action: string;
  paymentId?: string;
  /** What came of it, in words ("paid", "the service did not answer"). */
  result: string;
}

export interface ConsoleStore {
  listPayments(query: PaymentQuery): Promise<PaymentPage>;
  /** How many payments each filter holds at `now` (`all` included). */
  countPayments(now: number): Promise<Record<ConsoleFilter, number>>;
  /** Appends to a payment's timeline. Kept as long as the payment is (at most the newest 200 entries). */
  appendHistory(paymentId: string, entry: HistoryEntry): Promise<void>;
  /** The timeline, oldest first. */
  paymentHistory(paymentId: string): Promise<HistoryEntry[]>;
  /** Appends to the operator audit log, kept for good. */
  appendAudit(entry: AuditEntry): Promise<void>;
  /** Audit entries, newest first: of one payment, or of all when `paymentId` is undefined. */
  auditLog(paymentId: string | undefined, limit: number): Promise<AuditEntry[]>;
}
