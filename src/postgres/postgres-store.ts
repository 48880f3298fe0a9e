/**
 * The proxy's store on PostgreSQL, for shops that run several proxy instances and keep their money in a SQL
 * database. Every instance that points at the same database (and schema) sees the same order claims, payments,
 * announcements, rate counters and event-stream messages. Each operation is one statement, so it is atomic across
 * instances by the database's own row locks: a payment is written only over the version that was read (a
 * conditional UPDATE; of two writers the second finds the version moved and is told so), a lease or an outbox
 * entry is taken by an upsert or an UPDATE whose WHERE says it is free, and a (payment, state) pair has one row
 * for good, so it is queued at most once and never again after it was announced. Nothing in process memory
 * decides who writes. Nor does any operation open a client transaction (sql.begin), not even the background prune,
 * a long message's NOTIFYs or a schema migration (whose transaction the server holds: migration-session.ts):
 * postgres.js 3.4.9 ends the whole process with an uncaught TypeError when the database goes away while one is open
 * (it sends the ROLLBACK on a socket already gone: porsager/postgres#1208), where a single statement that loses its
 * connection simply fails, and the request gets the retryable 503.
 *
 * The schema is created and migrated on first use (postgres-schema.ts); a database that is down at start is
 * tried again on the next operation. Event streams ride on LISTEN/NOTIFY: one channel per schema, its payload the
 * store channel and the message (a long one in pieces: notify-pieces.ts), handed out to this process's listeners.
 */
import type { Sql } from 'postgres';
import { LocalPubSub } from '../proxy/infrastructure/local-pub-sub.js';
import type {
  AuditEntry,
  ConsoleFilter,
  ConsoleStore,
  HistoryEntry,
  PaymentPage,
  PaymentQuery,
} from '../proxy/infrastructure/console-store.js';
import type { OrderRecord, OutboxEntry, PaymentRecord, ProxyStore } from '../proxy/infrastructure/store.js';
import { PostgresConsole } from './postgres-console.js';
import { answeredWithin, storeError } from './postgres-errors.js';
import { listingColumns } from './postgres-listing.js';
import { migrate } from './postgres-schema.js';
import { notifyPayloads, PayloadReader } from './notify-pieces.js';

export interface PostgresStoreSettings {
  schema: string;
  /** How long open payments and unpaid orders are kept after their last write. */
  ttlMs: number;
  /** How long close() waits for queries in flight before it drops the connections, in seconds. */
  closeTimeoutSeconds: number;
  /** How often (at most) a write also drops expired scratch. Default a minute. */
  pruneEveryMs?: number;
  /** The connections' lock_timeout, in seconds: said in the error of a statement that waited that long. */
  lockTimeoutSeconds?: number;
  /** How long a statement may wait for the database's answer before it fails, in seconds (no bound when unset). */
  answerTimeoutSeconds?: number;
  /**
   * Opens a client like `sql` (same database and settings) with one connection, for a schema migration's
   * transaction (migration-session.ts); it is ended when the migration is over.
   */
  migrationClient: () => Sql;
}

export class PostgresStore implements ProxyStore, ConsoleStore {
  readonly #sql: Sql;
  readonly #settings: PostgresStoreSettings;
  readonly #channel: string;
  readonly #local = new LocalPubSub();
  readonly #reader = new PayloadReader();
  #ready: Promise<void> | undefined;
  /** The migration's own client while one runs, so that close() ends it too. */
  #migrating: Sql | undefined;
  #listening: Promise<unknown> | undefined;
  #prunedAt = 0;
  #closing: Promise<void> | undefined;
  readonly #console = new PostgresConsole((operation, statement) => this.#run(operation, statement));

  /** `sql` must have the schema as its search_path (createPostgresStore sets it). */
  constructor(sql: Sql, settings: PostgresStoreSettings) {
    this.#sql = sql;
    this.#settings = settings;
    this.#channel = `${settings.schema}_events`;
  }

  /** Creates or migrates the schema now, instead of on the first operation (to fail at start-up, not later). */
  ready(): Promise<void> {
    if (!this.#ready) {
      const open = () => (this.#migrating = this.#settings.migrationClient());
      const migrating = migrate(this.#sql, this.#settings.schema, open).finally(() => (this.#migrating = undefined));
      this.#ready = migrating.catch((error) => {
        this.#ready = undefined; // the database may be back for the next operation
        throw storeError('creating the schema', error);
      });
    }
    return this.#ready;
  }

  async claim(key: string, owner: string, leaseMs: number): Promise<boolean> {
    const rows = await this.#run(
      'claim',
      (sql) =>
        sql`INSERT INTO leases (key, owner, expires_at) VALUES (${key}, ${owner}, now_ms() + ${leaseMs}::bigint)
          ON CONFLICT (key) DO UPDATE SET owner = excluded.owner, expires_at = excluded.expires_at
          WHERE leases.expires_at <= now_ms()
          RETURNING 1`,
    );
    return rows.length === 1;
  }

  async release(key: string, owner: string): Promise<void> {
    await this.#run('release', (sql) => sql`DELETE FROM leases WHERE key = ${key} AND owner = ${owner}`);
  }

  async extend(key: string, owner: string, leaseMs: number): Promise<boolean> {
    const rows = await this.#run(
      'extend',
      (sql) =>
        sql`UPDATE leases SET expires_at = now_ms() + ${leaseMs}::bigint
          WHERE key = ${key} AND owner = ${owner} AND expires_at > now_ms()
          RETURNING 1`,
    );
    return rows.length === 1;
  }

  async getOrder(orderId: string): Promise<OrderRecord | undefined> {
    const [row] = await this.#run('getOrder', (sql) => sql`SELECT record::text AS json FROM orders WHERE order_id = ${orderId}`);
    return row ? (JSON.parse(row.json) as OrderRecord) : undefined;
  }

  async putOrder(order: OrderRecord): Promise<void> {
    await this.#run(
      'putOrder',
      (sql) =>
        sql`INSERT INTO orders (order_id, record, paid, updated_at)
          VALUES (${order.orderId}, ${JSON.stringify(order)}::text::jsonb, ${order.paidBy !== undefined}, now_ms())
          ON CONFLICT (order_id) DO UPDATE SET record = excluded.record, paid = excluded.paid, updated_at = excluded.updated_at`,
    );
    this.#pruneNowAndThen();
  }

  async getPayment(id: string): Promise<PaymentRecord | undefined> {
    const [row] = await this.#run('getPayment', (sql) => sql`SELECT record::text AS json FROM payments WHERE id = ${id}`);
    return row ? (JSON.parse(row.json) as PaymentRecord) : undefined;
  }

  async putPayment(record: PaymentRecord, expectedVersion: number): Promise<boolean> {
    return this.#putPayment(record, expectedVersion);
  }

  /** The payment and its announcement in one statement: the queue insert runs only on the row the write returned. */
  async putPaymentAndEnqueue(record: PaymentRecord, expectedVersion: number, dueAt: number): Promise<boolean> {
    return this.#putPayment(record, expectedVersion, dueAt);
  }

  async #putPayment(record: PaymentRecord, expectedVersion: number, dueAt?: number): Promise<boolean> {
    const { id, final, state } = record.view;
    const json = JSON.stringify(record);
    const follow = record.followUntil ?? null;
    // The console's listing columns go with the record, in the same statement, so they never disagree with it.
    const l = listingColumns(record);
    const [row] = await this.#run('putPayment', (sql) => {
      const written =
        expectedVersion === 0
          ? sql`INSERT INTO payments (id, version, record, final, follow_until, updated_at,
                  listed_at, order_id, tag, late, second, refunded, expires_at, contradicted, resolved)
                VALUES (${id}, ${record.version}, ${json}::text::jsonb, ${final}, ${follow}, now_ms(),
                  ${l.listed_at}, ${l.order_id}, ${l.tag}, ${l.late}, ${l.second}, ${l.refunded}, ${l.expires_at},
                  ${l.contradicted}, ${l.resolved})
                ON CONFLICT (id) DO NOTHING RETURNING id`
          : sql`UPDATE payments SET version = ${record.version}, record = ${json}::text::jsonb, final = ${final},
                  follow_until = ${follow}, updated_at = now_ms(), listed_at = ${l.listed_at}, order_id = ${l.order_id},
                  tag = ${l.tag}, late = ${l.late}, second = ${l.second}, refunded = ${l.refunded}, expires_at = ${l.expires_at},
                  contradicted = ${l.contradicted}, resolved = ${l.resolved}
                WHERE id = ${id} AND version = ${expectedVersion} RETURNING id`;
      if (dueAt === undefined) return sql`WITH written AS (${written}) SELECT count(*)::int AS n FROM written`;
      return sql`WITH written AS (${written}),
                 queued AS (INSERT INTO announcements (payment_id, state, due_at)
                            SELECT id, ${state}, ${dueAt} FROM written ON CONFLICT DO NOTHING)
                 SELECT count(*)::int AS n FROM written`;
    });
    this.#pruneNowAndThen();
    return Number(row?.n) === 1;
  }

  async followedPayments(limit: number, afterId?: string): Promise<string[]> {
    if (limit <= 0) return [];
    const rows = await this.#run(
      'followedPayments',
      (sql) => sql`SELECT id FROM payments WHERE follow_until IS NOT NULL AND id > ${afterId ?? ''} ORDER BY id LIMIT ${limit}`,
    );
    return rows.map((row) => String(row.id));
  }

  async enqueueAnnouncement(paymentId: string, state: string, dueAt: number): Promise<boolean> {
    const rows = await this.#run(
      'enqueueAnnouncement',
      (sql) =>
        sql`INSERT INTO announcements (payment_id, state, due_at) VALUES (${paymentId}, ${state}, ${dueAt})
          ON CONFLICT DO NOTHING RETURNING 1`,
    );
    return rows.length === 1;
  }

  async dueAnnouncements(now: number, limit: number): Promise<OutboxEntry[]> {
    if (limit <= 0) return [];
    const rows = await this.#run(
      'dueAnnouncements',
      (sql) =>
        sql`SELECT payment_id, state, attempts, due_at FROM announcements
          WHERE NOT announced AND due_at <= ${now} AND held_until <= now_ms()
          ORDER BY due_at, payment_id, state LIMIT ${limit}`,
    );
    return rows.map((row) => ({
      paymentId: String(row.payment_id),
      state: String(row.state),
      attempts: Number(row.attempts),
      dueAt: Number(row.due_at),
    }));
  }

  async claimAnnouncement(paymentId: string, state: string, leaseMs: number): Promise<OutboxEntry | undefined> {
    const [row] = await this.#run(
      'claimAnnouncement',
      (sql) =>
        sql`UPDATE announcements SET held_until = now_ms() + ${leaseMs}::bigint
          WHERE payment_id = ${paymentId} AND state = ${state} AND NOT announced AND held_until <= now_ms()
          RETURNING attempts, due_at`,
    );
    return row ? { paymentId, state, attempts: Number(row.attempts), dueAt: Number(row.due_at) } : undefined;
  }

  async extendAnnouncement(paymentId: string, state: string, leaseMs: number): Promise<boolean> {
    const rows = await this.#run(
      'extendAnnouncement',
      (sql) =>
        sql`UPDATE announcements SET held_until = now_ms() + ${leaseMs}::bigint
          WHERE payment_id = ${paymentId} AND state = ${state} AND NOT announced AND held_until > now_ms()
          RETURNING 1`,
    );
    return rows.length === 1;
  }

  async commitAnnouncement(paymentId: string, state: string): Promise<void> {
    await this.#run(
      'commitAnnouncement',
      (sql) =>
        sql`INSERT INTO announcements (payment_id, state, announced, due_at) VALUES (${paymentId}, ${state}, true, 0)
          ON CONFLICT (payment_id, state) DO UPDATE SET announced = true, held_until = 0`,
    );
  }

  async rescheduleAnnouncement(paymentId: string, state: string, dueAt: number, failed = true): Promise<void> {
    await this.#run(
      'rescheduleAnnouncement',
      (sql) =>
        sql`UPDATE announcements SET attempts = attempts + ${failed ? 1 : 0}, due_at = ${dueAt}, held_until = 0
          WHERE payment_id = ${paymentId} AND state = ${state} AND NOT announced`,
    );
  }

  async wasAnnounced(paymentId: string, state: string): Promise<boolean> {
    const rows = await this.#run(
      'wasAnnounced',
      (sql) => sql`SELECT 1 FROM announcements WHERE payment_id = ${paymentId} AND state = ${state} AND announced`,
    );
    return rows.length === 1;
  }

  async count(key: string, delta: number, ttlMs: number): Promise<number> {
    if (!Number.isSafeInteger(delta)) throw new RangeError(`count: delta must be an integer, got ${delta}`);
    const [row] = await this.#run(
      'count',
      (sql) =>
        sql`INSERT INTO counters (key, value, expires_at) VALUES (${key}, ${delta}, now_ms() + ${ttlMs}::bigint)
          ON CONFLICT (key) DO UPDATE SET
            value = CASE WHEN counters.expires_at <= now_ms() THEN excluded.value ELSE counters.value + excluded.value END,
            expires_at = excluded.expires_at
          RETURNING value`,
    );
    return Number(row!.value);
  }

  // The console's operations (console-store.ts), in postgres-console.ts.
  listPayments(query: PaymentQuery): Promise<PaymentPage> {
    return this.#console.listPayments(query);
  }

  countPayments(now: number): Promise<Record<ConsoleFilter, number>> {
    return this.#console.countPayments(now);
  }

  appendHistory(paymentId: string, entry: HistoryEntry): Promise<void> {
    return this.#console.appendHistory(paymentId, entry);
  }

  paymentHistory(paymentId: string): Promise<HistoryEntry[]> {
    return this.#console.paymentHistory(paymentId);
  }

  appendAudit(entry: AuditEntry): Promise<void> {
    return this.#console.appendAudit(entry);
  }

  auditLog(paymentId: string | undefined, limit: number): Promise<AuditEntry[]> {
    return this.#console.auditLog(paymentId, limit);
  }

  async publish(channel: string, message: string): Promise<void> {
    const payloads = notifyPayloads(channel, message);
    const [only] = payloads;
    if (payloads.length === 1) {
      await this.#run('publish', (sql) => sql`SELECT pg_notify(${this.#channel}, ${only!})`);
      return;
    }
    // A long message's pieces in one statement, so in one transaction: every listener gets them together
    // (notify-pieces.ts). PostgreSQL evaluates a volatile output column such as pg_notify after the ORDER BY sort,
    // so the pieces are queued in their order. Handed over as JSON, not text[]: the connections fetch no array types
    // (create-postgres-store.ts), and JSON needs none.
    await this.#run(
      'publish',
      (sql) =>
        sql`SELECT pg_notify(${this.#channel}, piece) FROM jsonb_array_elements_text(${sql.json(payloads)}) WITH ORDINALITY AS p (piece, n) ORDER BY n`,
    );
  }

  async subscribe(channel: string, listener: (message: string) => void): Promise<() => Promise<void>> {
    if (this.#closing) throw new Error('payin-checkout/postgres: the store is closed');
    if (!this.#listening) {
      // One LISTEN for the whole store, kept until close(); the client listens again by itself after a reconnect.
      this.#listening = this.#sql
        .listen(this.#channel, (payload) => this.#dispatch(payload))
        .catch((error) => {
          this.#listening = undefined;
          throw storeError('subscribe', error);
        });
    }
    await this.#listening;
    return this.#local.subscribe(channel, listener);
  }

  /**
   * Health checks: one round trip once the schema is ready, failing with the error that names the fix. It asks
   * whether this session may write, not only whether it answers: a standby, or a primary with
   * default_transaction_read_only on, answers every read and refuses every write of the ledger.
   */
  async ping(): Promise<void> {
    const [row] = await this.#run(
      'ping',
      (sql) => sql<{ read_only: string }[]>`SELECT current_setting('transaction_read_only') AS read_only`,
    );
    if (row?.read_only === 'on') throw storeError('ping', Object.assign(new Error('read-only'), { code: '25006' }));
  }

  /** Local event-stream listeners, for tests that check that streams let go of theirs. */
  get subscriptionCount(): number {
    return this.#local.size;
  }

  /** Ends the connections once the queries in flight are answered. Calling it again returns the same promise. */
  close(): Promise<void> {
    const timeout = this.#settings.closeTimeoutSeconds;
    this.#closing ??= Promise.all([this.#sql.end({ timeout }), this.#migrating?.end({ timeout })]).then(() => {});
    return this.#closing;
  }

  #dispatch(payload: string): void {
    // Undefined for a piece of a longer message, or for what is not ours (someone else NOTIFYing on the channel).
    const read = this.#reader.read(payload);
    if (read) this.#local.publish(read[0], read[1]);
  }

  /** Runs one statement once the schema is ready, turning a failure into an error that names the fix. */
  async #run<T>(operation: string, statement: (sql: Sql) => Promise<T>): Promise<T> {
    await this.ready();
    try {
      return await answeredWithin(this.#settings.answerTimeoutSeconds, statement(this.#sql));
    } catch (error) {
      throw storeError(operation, error, this.#settings.lockTimeoutSeconds);
    }
  }

  /** Drops expired scratch at most once a minute; a failure waits for the next minute. */
  #pruneNowAndThen(): void {
    const now = Date.now();
    if (now - this.#prunedAt < (this.#settings.pruneEveryMs ?? 60_000)) return;
    this.#prunedAt = now;
    const ttl = this.#settings.ttlMs;
    // One statement, not a transaction (see the header). A payment dropped takes its timeline with it. An open
    // payment's time to live runs from its last write or from the end of its follow window, whichever is later: one
    // payable for days (a bank transfer) stays while reconciliation asks about it.
    void this.#sql`WITH leases_gone AS (DELETE FROM leases WHERE expires_at <= now_ms()),
        counters_gone AS (DELETE FROM counters WHERE expires_at <= now_ms()),
        payments_gone AS (DELETE FROM payments WHERE NOT final AND updated_at < now_ms() - ${ttl}::bigint
          AND (follow_until IS NULL OR follow_until < now_ms() - ${ttl}::bigint) RETURNING id),
        history_gone AS (DELETE FROM payment_history WHERE payment_id IN (SELECT id FROM payments_gone)),
        orders_gone AS (DELETE FROM orders WHERE NOT paid AND updated_at < now_ms() - ${ttl}::bigint),
        -- The console's counts folded to one row per filter (postgres-schema.ts, version 5), so that a count reads
        -- those and the changes written since. A change written meanwhile is not seen by this statement, and stays.
        counts_read AS (DELETE FROM payment_counts RETURNING filter, n),
        counts_folded AS (INSERT INTO payment_counts (filter, n)
          SELECT filter, sum(n) FROM counts_read GROUP BY filter HAVING sum(n) <> 0)
      SELECT 1`.catch(() => undefined);
  }
}
