/**
 * The console's operations on SQLite (console-store.ts): every listing is one indexed walk, newest first, from the
 * cursor's place (`(listed_at, id) < (?, ?)`), so a page costs the same on the first page and the thousandth, with
 * 100,000 payments or more (bench/console-list.mjs). The listing columns are written with the record
 * (`listingColumns`); timelines and the audit log are tables of their own.
 */
import {
  type AuditEntry,
  type ConsoleFilter,
  decodeCursor,
  HISTORY_LIMIT,
  type HistoryEntry,
  listingOf,
  type PaymentPage,
  type PaymentQuery,
  pageOf,
  tagOf,
  zeroCounts,
} from '../proxy/infrastructure/console-store.js';
import type { PaymentRecord } from '../proxy/infrastructure/store.js';
import type { SqliteConnection, SqliteStatement, SqliteValue } from './sqlite-driver.js';
import { inTransaction } from './sqlite-transaction.js';

type Row = Record<string, unknown>;

/** The `second` column's values besides 0 (each with its partial index, sqlite-schema.ts). */
const SECOND_TO_REFUND = 1;
const SECOND_REFUNDED = 2;

/** The `contradicted` column's values besides 0 (migration 4): to look into, and marked resolved by an operator. */
const CONTRADICTED = 1;
const RESOLVED = 2;

/**
 * listed_at, order_id, tag, late, second, expires_at, contradicted: in this order in the payments statements.
 * `second` is 1 for a second payment whose refund is to do and 2 once an operator marked it refunded (each value its
 * own partial index), so that the mark moves a payment between the two filters without a column that a file written
 * before it would have to be migrated to; `contradicted` likewise, 1 and 2.
 */
export function listingColumns(record: PaymentRecord): [number, string, string, number, number, number | null, number] {
  const { listedAt, expiresAt, tags } = listingOf(record);
  const second = tags.includes('second') ? SECOND_TO_REFUND : tags.includes('refunded') ? SECOND_REFUNDED : 0;
  const contradicted = tags.includes('contradicted') ? CONTRADICTED : tags.includes('resolved') ? RESOLVED : 0;
  return [listedAt, record.view.orderId, tagOf(record), tags.includes('late') ? 1 : 0, second, expiresAt ?? null, contradicted];
}

/**
 * Payments whose current state's announcement was tried and not taken yet (index outbox_failing). A state the payment
 * has left waits in the outbox for its retry, which skips it without calling the hook (outbox.ts): it fails nothing
 * any more, so it is matched against the state in the record.
 */
const FAILING_IDS = `SELECT o.payment_id FROM outbox o JOIN payments q ON q.id = o.payment_id
  WHERE o.attempts > 0 AND o.state = json_extract(q.record, '$.view.state')`;

const FILTER_SQL: Record<ConsoleFilter, string> = {
  all: '1 = 1',
  open: "tag = 'open'",
  paid: "tag = 'paid'",
  underpaid: "tag = 'underpaid'",
  superseded: "tag = 'superseded'",
  expired: "tag = 'expired'",
  failed: "tag = 'failed'",
  late: 'late = 1',
  second: `second = ${SECOND_TO_REFUND}`,
  refunded: `second = ${SECOND_REFUNDED}`,
  contradicted: `contradicted = ${CONTRADICTED}`,
  resolved: `contradicted = ${RESOLVED}`,
  stuck: "tag = 'open' AND expires_at < ?",
  failing: `id IN (${FAILING_IDS})`,
};

export class SqliteConsole {
  readonly #db: SqliteConnection;
  readonly #lists = new Map<string, SqliteStatement>();
  readonly #sql: Record<string, SqliteStatement>;

  constructor(db: SqliteConnection) {
    this.#db = db;
    const p = (sql: string) => db.prepare(sql);
    this.#sql = {
      countTags: p('SELECT tag, COUNT(*) AS n FROM payments GROUP BY tag'),
      countFlags: p(
        `SELECT (SELECT COUNT(*) FROM payments WHERE late = 1) AS late,
           (SELECT COUNT(*) FROM payments WHERE second = ${SECOND_TO_REFUND}) AS second,
           (SELECT COUNT(*) FROM payments WHERE second = ${SECOND_REFUNDED}) AS refunded,
           (SELECT COUNT(*) FROM payments WHERE contradicted = ${CONTRADICTED}) AS contradicted,
           (SELECT COUNT(*) FROM payments WHERE contradicted = ${RESOLVED}) AS resolved`,
      ),
      countStuck: p("SELECT COUNT(*) AS n FROM payments WHERE tag = 'open' AND expires_at < ?"),
      countFailing: p(`SELECT COUNT(*) AS n FROM payments WHERE id IN (${FAILING_IDS})`),
      historyPut: p('INSERT INTO payment_history (payment_id, entry) VALUES (?, ?)'),
      historyTrim: p(
        `DELETE FROM payment_history WHERE payment_id = ? AND seq <= (
           SELECT seq FROM payment_history WHERE payment_id = ? ORDER BY seq DESC LIMIT 1 OFFSET ${HISTORY_LIMIT})`,
      ),
      historyGet: p('SELECT entry FROM payment_history WHERE payment_id = ? ORDER BY seq'),
      auditPut: p('INSERT INTO audit (payment_id, entry) VALUES (?, ?)'),
      auditOf: p('SELECT entry FROM audit WHERE payment_id = ? ORDER BY seq DESC LIMIT ?'),
      auditAll: p('SELECT entry FROM audit ORDER BY seq DESC LIMIT ?'),
    };
  }

  list(query: PaymentQuery): PaymentPage {
    const after = decodeCursor(query.cursor);
    const where = [FILTER_SQL[query.filter]];
    const params: SqliteValue[] = query.filter === 'stuck' ? [query.now] : [];
    if (query.orderId !== undefined) {
      where.push('order_id = ?');
      params.push(query.orderId);
    }
    if (after) {
      where.push('(listed_at < ? OR (listed_at = ? AND id < ?))');
      params.push(after.listedAt, after.listedAt, after.id);
    }
    params.push(query.limit + 1);
    const sql = `SELECT id, listed_at, record FROM payments WHERE ${where.join(' AND ')} ORDER BY listed_at DESC, id DESC LIMIT ?`;
    let statement = this.#lists.get(sql);
    if (!statement) {
      statement = this.#db.prepare(sql);
      this.#lists.set(sql, statement);
    }
    return pageOf(
      statement.all(...params) as Row[],
      query.limit,
      (row) => ({ listedAt: Number(row.listed_at), id: String(row.id) }),
      (row) => JSON.parse(String(row.record)) as PaymentRecord,
    );
  }

  counts(now: number): Record<ConsoleFilter, number> {
    const counts = zeroCounts();
    for (const row of this.#sql.countTags!.all() as Row[]) {
      const tag = String(row.tag) as ConsoleFilter;
      if (Object.hasOwn(counts, tag)) counts[tag] += Number(row.n);
      counts.all += Number(row.n);
    }
    const flags = this.#sql.countFlags!.get() as Row;
    counts.late = Number(flags.late);
    counts.second = Number(flags.second);
    counts.refunded = Number(flags.refunded);
    counts.contradicted = Number(flags.contradicted);
    counts.resolved = Number(flags.resolved);
    counts.stuck = Number((this.#sql.countStuck!.get(now) as Row).n);
    counts.failing = Number((this.#sql.countFailing!.get() as Row).n);
    return counts;
  }

  appendHistory(paymentId: string, entry: HistoryEntry): void {
    inTransaction(this.#db, () => {
      this.#sql.historyPut!.run(paymentId, JSON.stringify(entry));
      this.#sql.historyTrim!.run(paymentId, paymentId);
    });
  }

  history(paymentId: string): HistoryEntry[] {
    return (this.#sql.historyGet!.all(paymentId) as Row[]).map((row) => JSON.parse(String(row.entry)) as HistoryEntry);
  }

  appendAudit(entry: AuditEntry): void {
    this.#sql.auditPut!.run(entry.paymentId ?? null, JSON.stringify(entry));
  }

  audit(paymentId: string | undefined, limit: number): AuditEntry[] {
    const rows = (paymentId === undefined ? this.#sql.auditAll!.all(limit) : this.#sql.auditOf!.all(paymentId, limit)) as Row[];
    return rows.map((row) => JSON.parse(String(row.entry)) as AuditEntry);
  }
}
