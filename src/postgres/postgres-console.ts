/**
 * The console's operations on PostgreSQL (console-store.ts): every listing is one indexed walk, newest first, from
 * the cursor's place (`(listed_at, id) < (cursor)`), so a page costs the same on the first page and the
 * thousandth. The listing columns are written with the record (postgres-listing.ts); timelines and the audit log
 * are tables of their own. Each operation is one statement.
 */
import type { Fragment, Sql } from 'postgres';
import {
  type AuditEntry,
  CONSOLE_FILTERS,
  type ConsoleFilter,
  type ConsoleStore,
  decodeCursor,
  HISTORY_LIMIT,
  type HistoryEntry,
  type PaymentPage,
  type PaymentQuery,
  pageOf,
} from '../proxy/infrastructure/console-store.js';
import type { PaymentRecord } from '../proxy/infrastructure/store.js';

/** Runs one statement once the schema is ready, naming the operation when it fails (PostgresStore's #run). */
export type Runner = <T>(operation: string, statement: (sql: Sql) => Promise<T>) => Promise<T>;

/** The outcome filters that are a value of the `tag` column. */
const TAGGED = new Set<ConsoleFilter>(['open', 'paid', 'underpaid', 'superseded', 'expired', 'failed']);

/**
 * Payments whose current state's announcement the hook has not taken yet after at least one try (index
 * announcements_failing). A state the payment has left waits for its retry, which skips it without calling the hook
 * (outbox.ts): it fails nothing any more, so it is matched against the state in the record.
 */
const failingIds = (sql: Sql) => sql`SELECT a.payment_id FROM announcements a JOIN payments q ON q.id = a.payment_id
  WHERE a.attempts > 0 AND NOT a.announced AND a.state = q.record->'view'->>'state'`;

function filterSql(sql: Sql, filter: ConsoleFilter, now: number): Fragment {
  if (TAGGED.has(filter)) return sql`tag = ${filter}`;
  if (filter === 'late') return sql`late`;
  if (filter === 'second') return sql`second`;
  if (filter === 'refunded') return sql`refunded`;
  if (filter === 'contradicted') return sql`contradicted`;
  if (filter === 'resolved') return sql`resolved`;
  if (filter === 'stuck') return sql`tag = 'open' AND expires_at < ${now}`;
  if (filter === 'failing') return sql`id IN (${failingIds(sql)})`;
  return sql`true`;
}

type Place = { listedAt: number; id: string };

/**
 * The cursor's place as a bigint the index can compare with. listed_at is a whole number of milliseconds, so a
 * place between two (a cursor edited by hand) lists what the other stores list: everything up to its floor.
 */
function placeOf(after: Place | undefined): Place | undefined {
  if (!after) return undefined;
  const place = Number.isInteger(after.listedAt) ? after : { listedAt: Math.floor(after.listedAt) + 1, id: '' };
  if (!Number.isSafeInteger(place.listedAt)) throw new RangeError('not a cursor this store wrote');
  return place;
}

export class PostgresConsole implements ConsoleStore {
  readonly #run: Runner;

  constructor(run: Runner) {
    this.#run = run;
  }

  async listPayments(query: PaymentQuery): Promise<PaymentPage> {
    const after = placeOf(decodeCursor(query.cursor));
    const rows = await this.#run('listPayments', (sql) => {
      const byOrder = query.orderId === undefined ? sql`` : sql`AND order_id = ${query.orderId}`;
      const from = after ? sql`AND (listed_at, id) < (${after.listedAt}::bigint, ${after.id})` : sql``;
      return sql`SELECT id, listed_at, record::text AS json FROM payments
        WHERE ${filterSql(sql, query.filter, query.now)} ${byOrder} ${from}
        ORDER BY listed_at DESC, id DESC LIMIT ${query.limit + 1}`;
    });
    return pageOf(
      rows,
      query.limit,
      (row) => ({ listedAt: Number(row.listed_at), id: String(row.id) }),
      (row) => JSON.parse(row.json) as PaymentRecord,
    );
  }

  /**
   * The filters that follow from the record from `payment_counts` (schema version 5: what each write changed, kept
   * exact by the writers' own statements), `failing` and `stuck` from their indexes: no page load reads the
   * payments whole. A filter no payment is under has no row.
   */
  async countPayments(now: number): Promise<Record<ConsoleFilter, number>> {
    const rows = await this.#run(
      'countPayments',
      (sql) =>
        sql`SELECT filter, sum(n)::int AS n FROM payment_counts GROUP BY filter
          UNION ALL SELECT 'failing', count(*)::int FROM payments WHERE id IN (${failingIds(sql)})
          UNION ALL SELECT 'stuck', count(*)::int FROM payments WHERE tag = 'open' AND expires_at < ${now}`,
    );
    const counted = new Map(rows.map((row) => [String(row.filter), Number(row.n)]));
    return Object.fromEntries(CONSOLE_FILTERS.map((f) => [f, counted.get(f) ?? 0])) as Record<ConsoleFilter, number>;
  }

  /**
   * The entry and the trim in one statement. The trim does not see the row it adds (one snapshot), so it keeps
   * the newest HISTORY_LIMIT - 1 of those before: with the new one, the newest HISTORY_LIMIT.
   */
  async appendHistory(paymentId: string, entry: HistoryEntry): Promise<void> {
    await this.#run(
      'appendHistory',
      (sql) =>
        sql`WITH added AS (INSERT INTO payment_history (payment_id, entry) VALUES (${paymentId}, ${JSON.stringify(entry)}::text::jsonb))
          DELETE FROM payment_history WHERE payment_id = ${paymentId} AND seq <= (
            SELECT seq FROM payment_history WHERE payment_id = ${paymentId} ORDER BY seq DESC LIMIT 1 OFFSET ${HISTORY_LIMIT - 1})`,
    );
  }

  async paymentHistory(paymentId: string): Promise<HistoryEntry[]> {
    const rows = await this.#run(
      'paymentHistory',
      (sql) => sql`SELECT entry::text AS json FROM payment_history WHERE payment_id = ${paymentId} ORDER BY seq`,
    );
    return rows.map((row) => JSON.parse(row.json) as HistoryEntry);
  }

  async appendAudit(entry: AuditEntry): Promise<void> {
    await this.#run(
      'appendAudit',
      (sql) => sql`INSERT INTO audit (payment_id, entry) VALUES (${entry.paymentId ?? null}, ${JSON.stringify(entry)}::text::jsonb)`,
    );
  }

  async auditLog(paymentId: string | undefined, limit: number): Promise<AuditEntry[]> {
    const rows = await this.#run('auditLog', (sql) => {
      const of = paymentId === undefined ? sql`` : sql`WHERE payment_id = ${paymentId}`;
      return sql`SELECT entry::text AS json FROM audit ${of} ORDER BY seq DESC LIMIT ${limit}`;
    });
    return rows.map((row) => JSON.parse(row.json) as AuditEntry);
  }
}
