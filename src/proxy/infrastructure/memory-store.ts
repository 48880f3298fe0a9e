/**
 * The default store: everything in this process's memory, for tests and for one short-lived process. It
 * forgets everything on restart: payments in flight are then looked up at the service again (tokens verify
 * without the store, and an order the store does not know is asked for by orderId), but a replayed callback of a
 * payment announced before the restart is announced again. Use the SQLite store for one durable process.
 *
 * What must never repeat while the process lives (paid orders, committed announcements, final payments) is
 * kept without a time to live or a size bound; only scratch data expires: leases, counters, and payments and
 * orders of unfinished work, each bounded (oldest first) so that a flood of abandoned orders cannot grow the
 * process without limit.
 */
import { systemClock, type Clock } from '../../shared/clock.js';
import { optionNames, refuseUnknownNames } from '../../shared/option-names.js';
import { ExpiringMap } from './expiring-map.js';
import { OneProcessStore } from './one-process-store.js';
import type { AuditEntry, ConsoleFilter, ConsoleStore, HistoryEntry, PaymentPage, PaymentQuery } from './console-store.js';
import { countScanned, listScanned, MemoryConsoleLog } from './memory-console.js';
import { followedFor, type OrderRecord, type OutboxEntry, type PaymentRecord, type ProxyStore } from './store.js';

export interface MemoryStoreOptions {
  clock?: Clock;
  /** How long records of unfinished work (open payments, unpaid orders) are kept after their last write. Default 24 hours. */
  ttlMs?: number;
  /** Entries per kind of scratch data (open payments, unpaid orders, leases, counters) kept: past it an expired one goes, else the oldest. Default 10,000. */
  maxEntries?: number;
}

/** One key per (payment, state) pair. */
const pairKey = (paymentId: string, state: string) => `${paymentId}\u0000${state}`;

/**
 * A payment as the other stores would give it back (a copy through JSON, so nothing the caller still holds is
 * shared), frozen to the last nested object: every read hands out this same record without copying it again, a
 * status poll of a final payment being the proxy's most frequent read. The proxy never changes a record it read
 * (it writes a new one); a frozen record makes sure that nobody does.
 */
interface KeptPayment {
  version: number;
  record: PaymentRecord;
}

interface HeldEntry extends OutboxEntry {
  /** Epoch ms until which a deliverer holds the entry; 0 when nobody does. */
  heldUntil: number;
}

export class MemoryStore extends OneProcessStore implements ProxyStore, ConsoleStore {
  readonly #clock: Clock;
  readonly #ttlMs: number;
  /** Open payments and unpaid orders: scratch, bounded. */
  readonly #openPayments: ExpiringMap<KeptPayment>;
  readonly #openOrders: ExpiringMap<string>;
  /** Final payments and paid orders: kept for the life of the process. */
  readonly #finalPayments = new Map<string, KeptPayment>();
  readonly #paidOrders = new Map<string, string>();
  readonly #followed = new Set<string>();
  readonly #outbox = new Map<string, HeldEntry>();
  readonly #announced = new Set<string>();
  readonly #leases: ExpiringMap<string>;
  readonly #consoleLog: MemoryConsoleLog;

  constructor(options: MemoryStoreOptions = {}) {
    const clock = options.clock ?? systemClock;
    const max = options.maxEntries ?? 10_000;
    super(clock, max);
    this.#clock = clock;
    this.#ttlMs = options.ttlMs ?? 24 * 60 * 60 * 1000;
    this.#openPayments = new ExpiringMap(this.#clock, max);
    this.#openOrders = new ExpiringMap(this.#clock, max);
    this.#leases = new ExpiringMap(this.#clock, max);
    this.#consoleLog = new MemoryConsoleLog(max * 2);
  }

  async claim(key: string, owner: string, leaseMs: number): Promise<boolean> {
    if (this.#leases.get(key) !== undefined) return false;
    this.#leases.set(key, owner, leaseMs);
    return true;
  }

  async release(key: string, owner: string): Promise<void> {
    if (this.#leases.get(key) === owner) this.#leases.delete(key);
  }

  async extend(key: string, owner: string, leaseMs: number): Promise<boolean> {
    if (this.#leases.get(key) !== owner) return false;
    this.#leases.set(key, owner, leaseMs);
    return true;
  }

  async getOrder(orderId: string): Promise<OrderRecord | undefined> {
    return parsed<OrderRecord>(this.#paidOrders.get(orderId) ?? this.#openOrders.get(orderId));
  }

  async putOrder(order: OrderRecord): Promise<void> {
    if (order.paidBy !== undefined) {
      this.#openOrders.delete(order.orderId);
      this.#paidOrders.set(order.orderId, JSON.stringify(order));
    } else if (!this.#paidOrders.has(order.orderId)) {
      this.#openOrders.set(order.orderId, JSON.stringify(order), this.#ttlMs);
    }
  }

  async getPayment(id: string): Promise<PaymentRecord | undefined> {
    return this.getPaymentNow(id);
  }

  getPaymentNow(id: string): PaymentRecord | undefined {
    return (this.#finalPayments.get(id) ?? this.#openPayments.get(id))?.record;
  }

  async putPayment(record: PaymentRecord, expectedVersion: number): Promise<boolean> {
    const id = record.view.id;
    const current = this.#finalPayments.get(id) ?? this.#openPayments.get(id);
    if ((current?.version ?? 0) !== expectedVersion) return false;
    const kept = { version: record.version, record: deepFreeze(JSON.parse(JSON.stringify(record)) as PaymentRecord) };
    if (record.view.final) {
      this.#openPayments.delete(id);
      this.#finalPayments.set(id, kept);
    } else {
      this.#finalPayments.delete(id);
      this.#openPayments.set(id, kept, this.#ttlMs + followedFor(record, this.#clock.now()));
    }
    if (record.followUntil !== undefined) this.#followed.add(id);
    else this.#followed.delete(id);
    return true;
  }

  async followedPayments(limit: number, afterId?: string): Promise<string[]> {
    const ids: string[] = [];
    for (const id of this.#followed) {
      // A followed payment that expired out of the scratch map is no longer followed.
      if (!this.#finalPayments.has(id) && this.#openPayments.get(id) === undefined) this.#followed.delete(id);
      else if (afterId === undefined || id > afterId) ids.push(id);
    }
    return ids.sort().slice(0, Math.max(0, limit));
  }

  async enqueueAnnouncement(paymentId: string, state: string, dueAt: number): Promise<boolean> {
    const key = pairKey(paymentId, state);
    if (this.#announced.has(key) || this.#outbox.has(key)) return false;
    this.#outbox.set(key, { paymentId, state, attempts: 0, dueAt, heldUntil: 0 });
    return true;
  }

  async dueAnnouncements(now: number, limit: number): Promise<OutboxEntry[]> {
    // Held is measured now, whatever `now` the caller asks about (the outbox asks about the end of time).
    const at = this.#clock.now();
    return [...this.#outbox.values()]
      .filter((entry) => entry.dueAt <= now && entry.heldUntil <= at)
      .sort((a, b) => a.dueAt - b.dueAt)
      .slice(0, Math.max(0, limit))
      .map(({ paymentId, state, attempts, dueAt }) => ({ paymentId, state, attempts, dueAt }));
  }

  async claimAnnouncement(paymentId: string, state: string, leaseMs: number): Promise<OutboxEntry | undefined> {
    const entry = this.#outbox.get(pairKey(paymentId, state));
    const now = this.#clock.now();
    if (!entry || entry.heldUntil > now) return undefined;
    entry.heldUntil = now + leaseMs;
    return { paymentId, state, attempts: entry.attempts, dueAt: entry.dueAt };
  }

  async extendAnnouncement(paymentId: string, state: string, leaseMs: number): Promise<boolean> {
    const entry = this.#outbox.get(pairKey(paymentId, state));
    const now = this.#clock.now();
    if (!entry || entry.heldUntil <= now) return false;
    entry.heldUntil = now + leaseMs;
    return true;
  }

  async commitAnnouncement(paymentId: string, state: string): Promise<void> {
    const key = pairKey(paymentId, state);
    this.#outbox.delete(key);
    this.#announced.add(key);
  }

  async rescheduleAnnouncement(paymentId: string, state: string, dueAt: number, failed = true): Promise<void> {
    const entry = this.#outbox.get(pairKey(paymentId, state));
    if (!entry) return;
    if (failed) entry.attempts += 1;
    entry.dueAt = dueAt;
    entry.heldUntil = 0;
  }

  async wasAnnounced(paymentId: string, state: string): Promise<boolean> {
    return this.#announced.has(pairKey(paymentId, state));
  }

  // The console's operations (console-store.ts): a scan of what this process holds.

  /** Always reachable: it lives in this process. */
  async ping(): Promise<void> {}

  async listPayments(query: PaymentQuery): Promise<PaymentPage> {
    return listScanned(this.#allPayments(), this.#failing(), query);
  }

  async countPayments(now: number): Promise<Record<ConsoleFilter, number>> {
    return countScanned(this.#allPayments(), this.#failing(), now);
  }

  async appendHistory(paymentId: string, entry: HistoryEntry): Promise<void> {
    this.#consoleLog.appendHistory(paymentId, entry);
  }

  async paymentHistory(paymentId: string): Promise<HistoryEntry[]> {
    return this.#consoleLog.history(paymentId);
  }

  async appendAudit(entry: AuditEntry): Promise<void> {
    this.#consoleLog.appendAudit(entry);
  }

  async auditLog(paymentId: string | undefined, limit: number): Promise<AuditEntry[]> {
    return this.#consoleLog.audit(paymentId, limit);
  }

  *#allPayments(): Iterable<PaymentRecord> {
    for (const kept of this.#finalPayments.values()) yield kept.record;
    for (const kept of this.#openPayments.values()) yield kept.record;
  }

  /**
   * Payments whose current state's announcement was tried and not taken yet. A state the payment has left waits in
   * the outbox for its retry, which skips it without calling the hook (outbox.ts): it fails nothing any more.
   */
  #failing(): Set<string> {
    const ids = new Set<string>();
    for (const entry of this.#outbox.values()) {
      if (entry.attempts > 0 && this.getPaymentNow(entry.paymentId)?.view.state === entry.state) ids.add(entry.paymentId);
    }
    return ids;
  }
}

/** Callers get copies, as they would from a real store: mutating a read record must not change the stored one. */
function parsed<T>(json: string | undefined): T | undefined {
  return json === undefined ? undefined : (JSON.parse(json) as T);
}

function deepFreeze<T>(value: T): T {
  if (value && typeof value === 'object') {
    for (const nested of Object.values(value)) deepFreeze(nested);
    Object.freeze(value);
  }
  return value;
}

const OPTION_NAMES = optionNames<MemoryStoreOptions>({ clock: true, ttlMs: true, maxEntries: true });

export function createMemoryStore(options?: MemoryStoreOptions): MemoryStore {
  refuseUnknownNames('createMemoryStore: options', options, OPTION_NAMES);
  return new MemoryStore(options);
}
