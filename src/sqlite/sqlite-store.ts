/**
 * The proxy's durable store for one process: SQLite, the runtime's own or better-sqlite3 (sqlite-driver.ts). Every
 * operation is one statement or one transaction on a synchronous connection, so it is atomic without locks in
 * JavaScript; the file survives
 * restarts and deploys, so a replayed callback, a reload of the checkout or a create for a paid order finds
 * the ledger as it was. One process per file: several processes on one file would each keep their own event
 * streams and counters (those live in memory here); run Redis for several instances.
 *
 * What must never repeat (final payments, paid orders, announced pairs) is kept for good; scratch data (leases,
 * open payments and unpaid orders untouched for `ttlMs`) is pruned now and then, on the injected clock.
 */
import { systemClock, type Clock } from '../shared/clock.js';
import { OneProcessStore } from '../proxy/infrastructure/one-process-store.js';
import type { OrderRecord, OutboxEntry, PaymentRecord, ProxyStore } from '../proxy/infrastructure/store.js';
import type { SqliteConnection, SqliteStatement } from './sqlite-driver.js';
import type {
  AuditEntry,
  ConsoleFilter,
  ConsoleStore,
  HistoryEntry,
  PaymentPage,
  PaymentQuery,
} from '../proxy/infrastructure/console-store.js';
import { listingColumns, SqliteConsole } from './sqlite-console.js';
import { BUSY_TIMEOUT_MS, retriedWhileBusy } from './sqlite-busy.js';
import { SqliteFileCheck } from './sqlite-health.js';
import { migrate } from './sqlite-schema.js';
import { inTransaction } from './sqlite-transaction.js';

export interface SqliteStoreSettings {
  clock?: Clock;
  /** How long open payments and unpaid orders are kept after their last write. Default 24 hours. */
  ttlMs?: number;
}

const PRUNE_EVERY_MS = 60_000;

type Row = Record<string, unknown>;

export class SqliteStore extends OneProcessStore implements ProxyStore, ConsoleStore {
  readonly #db: SqliteConnection;
  readonly #clock: Clock;
  readonly #ttlMs: number;
  readonly #sql: Record<string, SqliteStatement>;
  readonly #console: SqliteConsole;
  readonly #fileCheck: SqliteFileCheck;
  #prunedAt = 0;
  #closed = false;

  constructor(db: SqliteConnection, settings: SqliteStoreSettings = {}) {
    const clock = settings.clock ?? systemClock;
    super(clock, 100_000);
    this.#db = db;
    this.#clock = clock;
    this.#ttlMs = settings.ttlMs ?? 24 * 60 * 60 * 1000;
    // busy_timeout first: another connection may hold the file while this one switches it to WAL.
    db.exec(`PRAGMA busy_timeout = ${BUSY_TIMEOUT_MS}`);
    retriedWhileBusy(() => db.exec('PRAGMA journal_mode = WAL'));
    db.exec('PRAGMA synchronous = NORMAL');
    migrate(db);
    const p = (sql: string) => db.prepare(sql);
    this.#sql = {
      leaseGet: p('SELECT owner, expires_at FROM leases WHERE key = ?'),
      leasePut: p('INSERT OR REPLACE INTO leases (key, owner, expires_at) VALUES (?, ?, ?)'),
      leaseDelete: p('DELETE FROM leases WHERE key = ? AND owner = ?'),
      leaseExtend: p('UPDATE leases SET expires_at = ? WHERE key = ? AND owner = ? AND expires_at > ?'),
      orderGet: p('SELECT record FROM orders WHERE order_id = ?'),
      orderPut: p('INSERT OR REPLACE INTO orders (order_id, record, paid, updated_at) VALUES (?, ?, ?, ?)'),
      paymentGet: p('SELECT record, version FROM payments WHERE id = ?'),
      paymentInsert: p(
        `INSERT OR IGNORE INTO payments (id, version, record, final, follow_until, updated_at,
           listed_at, order_id, tag, late, second, expires_at, contradicted) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      ),
      paymentUpdate: p(
        `UPDATE payments SET version = ?, record = ?, final = ?, follow_until = ?, updated_at = ?,
           listed_at = ?, order_id = ?, tag = ?, late = ?, second = ?, expires_at = ?, contradicted = ? WHERE id = ? AND version = ?`,
      ),
      followed: p('SELECT id FROM payments WHERE follow_until IS NOT NULL AND id > ? ORDER BY id LIMIT ?'),
      announcedGet: p('SELECT 1 FROM announced WHERE payment_id = ? AND state = ?'),
      announcedPut: p('INSERT OR IGNORE INTO announced (payment_id, state) VALUES (?, ?)'),
      outboxGet: p('SELECT attempts, due_at, held_until FROM outbox WHERE payment_id = ? AND state = ?'),
      outboxInsert: p('INSERT INTO outbox (payment_id, state, attempts, due_at, held_until) VALUES (?, ?, 0, ?, 0)'),
      outboxDue: p('SELECT payment_id, state, attempts, due_at FROM outbox WHERE due_at <= ? AND held_until <= ? ORDER BY due_at LIMIT ?'),
      outboxHold: p('UPDATE outbox SET held_until = ? WHERE payment_id = ? AND state = ?'),
      outboxExtend: p('UPDATE outbox SET held_until = ? WHERE payment_id = ? AND state = ? AND held_until > ?'),
      outboxDelete: p('DELETE FROM outbox WHERE payment_id = ? AND state = ?'),
      outboxReschedule: p('UPDATE outbox SET attempts = attempts + ?, due_at = ?, held_until = 0 WHERE payment_id = ? AND state = ?'),
      pruneLeases: p('DELETE FROM leases WHERE expires_at <= ?'),
      // An open payment's time to live runs from its last write or from the end of its follow window, whichever is
      // later: one payable for days (a bank transfer) stays while reconciliation asks about it.
      pruneHistory: p(
        `DELETE FROM payment_history WHERE payment_id IN (SELECT id FROM payments
           WHERE final = 0 AND updated_at < ? AND (follow_until IS NULL OR follow_until < ?))`,
      ),
      prunePayments: p('DELETE FROM payments WHERE final = 0 AND updated_at < ? AND (follow_until IS NULL OR follow_until < ?)'),
      pruneOrders: p('DELETE FROM orders WHERE paid = 0 AND updated_at < ?'),
    };
    this.#console = new SqliteConsole(db);
    this.#fileCheck = new SqliteFileCheck(db);
  }

  async claim(key: string, owner: string, leaseMs: number): Promise<boolean> {
    const now = this.#clock.now();
    return inTransaction(this.#db, () => {
      const row = this.#sql.leaseGet!.get(key) as Row | undefined;
      if (row && Number(row.expires_at) > now) return false;
      this.#sql.leasePut!.run(key, owner, now + leaseMs);
      return true;
    });
  }

  async release(key: string, owner: string): Promise<void> {
    this.#sql.leaseDelete!.run(key, owner);
  }

  async extend(key: string, owner: string, leaseMs: number): Promise<boolean> {
    const now = this.#clock.now();
    return this.#sql.leaseExtend!.run(now + leaseMs, key, owner, now).changes > 0;
  }

  async getOrder(orderId: string): Promise<OrderRecord | undefined> {
    const row = this.#sql.orderGet!.get(orderId) as Row | undefined;
    return row ? (JSON.parse(String(row.record)) as OrderRecord) : undefined;
  }

  /** Which SQLite this store runs on. */
  get driver(): string {
    return this.#db.driver;
  }

  async putOrder(order: OrderRecord): Promise<void> {
    this.#sql.orderPut!.run(order.orderId, JSON.stringify(order), order.paidBy === undefined ? 0 : 1, this.#clock.now());
    this.#pruneNowAndThen();
  }

  async getPayment(id: string): Promise<PaymentRecord | undefined> {
    const row = this.#sql.paymentGet!.get(id) as Row | undefined;
    return row ? (JSON.parse(String(row.record)) as PaymentRecord) : undefined;
  }

  async putPayment(record: PaymentRecord, expectedVersion: number): Promise<boolean> {
    const written = this.#putPayment(record, expectedVersion);
    this.#pruneNowAndThen();
    return written;
  }

  /** The payment and its announcement in one transaction. */
  async putPaymentAndEnqueue(record: PaymentRecord, expectedVersion: number, dueAt: number): Promise<boolean> {
    const { id, state } = record.view;
    const written = inTransaction(this.#db, () => {
      if (!this.#putPayment(record, expectedVersion)) return false;
      this.#enqueue(id, state, dueAt);
      return true;
    });
    this.#pruneNowAndThen();
    return written;
  }

  #putPayment(record: PaymentRecord, expectedVersion: number): boolean {
    const { id, final } = record.view;
    const args = [JSON.stringify(record), final ? 1 : 0, record.followUntil ?? null, this.#clock.now(), ...listingColumns(record)] as const;
    const { changes } =
      expectedVersion === 0
        ? this.#sql.paymentInsert!.run(id, record.version, ...args)
        : this.#sql.paymentUpdate!.run(record.version, ...args, id, expectedVersion);
    return Number(changes) === 1;
  }

  async followedPayments(limit: number, afterId?: string): Promise<string[]> {
    if (limit <= 0) return [];
    return (this.#sql.followed!.all(afterId ?? '', limit) as Row[]).map((row) => String(row.id));
  }

  async enqueueAnnouncement(paymentId: string, state: string, dueAt: number): Promise<boolean> {
    return inTransaction(this.#db, () => this.#enqueue(paymentId, state, dueAt));
  }

  #enqueue(paymentId: string, state: string, dueAt: number): boolean {
    if (this.#sql.announcedGet!.get(paymentId, state) || this.#sql.outboxGet!.get(paymentId, state)) return false;
    this.#sql.outboxInsert!.run(paymentId, state, dueAt);
    return true;
  }

  async dueAnnouncements(now: number, limit: number): Promise<OutboxEntry[]> {
    if (limit <= 0) return [];
    const rows = this.#sql.outboxDue!.all(now, this.#clock.now(), limit) as Row[];
    return rows.map((row) => ({
      paymentId: String(row.payment_id),
      state: String(row.state),
      attempts: Number(row.attempts),
      dueAt: Number(row.due_at),
    }));
  }

  async claimAnnouncement(paymentId: string, state: string, leaseMs: number): Promise<OutboxEntry | undefined> {
    const now = this.#clock.now();
    return inTransaction(this.#db, () => {
      const row = this.#sql.outboxGet!.get(paymentId, state) as Row | undefined;
      if (!row || Number(row.held_until) > now) return undefined;
      this.#sql.outboxHold!.run(now + leaseMs, paymentId, state);
      return { paymentId, state, attempts: Number(row.attempts), dueAt: Number(row.due_at) };
    });
  }

  async extendAnnouncement(paymentId: string, state: string, leaseMs: number): Promise<boolean> {
    const now = this.#clock.now();
    return this.#sql.outboxExtend!.run(now + leaseMs, paymentId, state, now).changes > 0;
  }

  async commitAnnouncement(paymentId: string, state: string): Promise<void> {
    inTransaction(this.#db, () => {
      this.#sql.outboxDelete!.run(paymentId, state);
      this.#sql.announcedPut!.run(paymentId, state);
    });
  }

  async rescheduleAnnouncement(paymentId: string, state: string, dueAt: number, failed = true): Promise<void> {
    this.#sql.outboxReschedule!.run(failed ? 1 : 0, dueAt, paymentId, state);
  }

  async wasAnnounced(paymentId: string, state: string): Promise<boolean> {
    return this.#sql.announcedGet!.get(paymentId, state) !== undefined;
  }

  // The console's operations (console-store.ts), in sqlite-console.ts.

  async listPayments(query: PaymentQuery): Promise<PaymentPage> {
    return this.#console.list(query);
  }

  async countPayments(now: number): Promise<Record<ConsoleFilter, number>> {
    return this.#console.counts(now);
  }

  async appendHistory(paymentId: string, entry: HistoryEntry): Promise<void> {
    this.#console.appendHistory(paymentId, entry);
  }

  async paymentHistory(paymentId: string): Promise<HistoryEntry[]> {
    return this.#console.history(paymentId);
  }

  async appendAudit(entry: AuditEntry): Promise<void> {
    this.#console.appendAudit(entry);
  }

  async auditLog(paymentId: string | undefined, limit: number): Promise<AuditEntry[]> {
    return this.#console.audit(paymentId, limit);
  }

  /** Health checks: the file can be written and is still the one opened (sqlite-health.ts), or this throws why not. */
  async ping(): Promise<void> {
    this.#fileCheck.check();
  }

  /** Closes the file. The store cannot be used afterwards; calling it again does nothing. */
  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    this.#db.close();
  }

  /** Drops expired scratch at most once a minute. */
  #pruneNowAndThen(): void {
    const now = this.#clock.now();
    if (now - this.#prunedAt < PRUNE_EVERY_MS) return;
    this.#prunedAt = now;
    this.#sql.pruneLeases!.run(now);
    const scratchBefore = now - this.#ttlMs;
    this.#sql.pruneHistory!.run(scratchBefore, scratchBefore);
    this.#sql.prunePayments!.run(scratchBefore, scratchBefore);
    this.#sql.pruneOrders!.run(now - this.#ttlMs);
  }
}
