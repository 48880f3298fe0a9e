/**
 * The SQLite store's tables, versioned with `PRAGMA user_version` so that a file written by an older release is
 * brought forward in place. Payments keep their record as JSON beside the columns that are queried (version for
 * compare-and-set, follow_until for the follow index, final for what is kept for good); orders likewise;
 * the outbox and the announced pairs have a row each.
 */
import type { HistoryEntry, PaymentRecord } from '../proxy/infrastructure/store.js';
import { marked } from '../proxy/ledger/contradiction-marks.js';
import { listingColumns } from './sqlite-console.js';
import type { SqliteConnection } from './sqlite-driver.js';
import { inTransaction } from './sqlite-transaction.js';

/** A migration's statements, and what it fills in with the proxy's own code after them. */
type Migration = string | { sql: string; backfill: (db: SqliteConnection) => void };

const MIGRATIONS: readonly Migration[] = [
  `CREATE TABLE payments (
     id TEXT PRIMARY KEY,
     version INTEGER NOT NULL,
     record TEXT NOT NULL,
     final INTEGER NOT NULL,
     follow_until INTEGER,
     updated_at INTEGER NOT NULL
   );
   CREATE INDEX payments_followed ON payments (id) WHERE follow_until IS NOT NULL;
   CREATE INDEX payments_scratch ON payments (updated_at) WHERE final = 0;
   CREATE TABLE orders (
     order_id TEXT PRIMARY KEY,
     record TEXT NOT NULL,
     paid INTEGER NOT NULL,
     updated_at INTEGER NOT NULL
   );
   CREATE TABLE leases (key TEXT PRIMARY KEY, owner TEXT NOT NULL, expires_at INTEGER NOT NULL);
   CREATE TABLE outbox (
     payment_id TEXT NOT NULL,
     state TEXT NOT NULL,
     attempts INTEGER NOT NULL,
     due_at INTEGER NOT NULL,
     held_until INTEGER NOT NULL,
     PRIMARY KEY (payment_id, state)
   );
   CREATE INDEX outbox_due ON outbox (due_at);
   CREATE TABLE announced (payment_id TEXT NOT NULL, state TEXT NOT NULL, PRIMARY KEY (payment_id, state));`,
  // The console (console-store.ts): listing columns written with every payment (listingColumns), filled in here
  // for payments written before, with that same function rather than a SQL copy of it; each filter is an index
  // walked newest first. Timelines and the audit log.
  {
    sql: `ALTER TABLE payments ADD COLUMN listed_at INTEGER NOT NULL DEFAULT 0;
   ALTER TABLE payments ADD COLUMN order_id TEXT NOT NULL DEFAULT '';
   ALTER TABLE payments ADD COLUMN tag TEXT NOT NULL DEFAULT 'open';
   ALTER TABLE payments ADD COLUMN late INTEGER NOT NULL DEFAULT 0;
   ALTER TABLE payments ADD COLUMN second INTEGER NOT NULL DEFAULT 0;
   ALTER TABLE payments ADD COLUMN expires_at INTEGER;
   CREATE INDEX payments_listed ON payments (listed_at, id);
   CREATE INDEX payments_by_tag ON payments (tag, listed_at, id);
   CREATE INDEX payments_by_order ON payments (order_id, listed_at, id);
   CREATE INDEX payments_late ON payments (listed_at, id) WHERE late = 1;
   CREATE INDEX payments_second ON payments (listed_at, id) WHERE second = 1;
   CREATE INDEX outbox_failing ON outbox (payment_id) WHERE attempts > 0;
   CREATE TABLE payment_history (seq INTEGER PRIMARY KEY AUTOINCREMENT, payment_id TEXT NOT NULL, entry TEXT NOT NULL);
   CREATE INDEX payment_history_of ON payment_history (payment_id, seq);
   CREATE TABLE audit (seq INTEGER PRIMARY KEY AUTOINCREMENT, payment_id TEXT, entry TEXT NOT NULL);
   CREATE INDEX audit_of ON audit (payment_id, seq);`,
    backfill: backfillListing,
  },
  // Second payments an operator marked refunded (second = 2, sqlite-console.ts): their own filter, walked newest
  // first like the others. No payment was marked before, so there is nothing to fill in.
  'CREATE INDEX payments_refunded ON payments (listed_at, id) WHERE second = 2;',
  // Final payments the service contradicted (contradicted = 1) and those an operator marked resolved (2,
  // sqlite-console.ts): their own filters, walked newest first like the others. A contradiction noted before had
  // only its timeline line: its payment is marked from it.
  {
    sql: `ALTER TABLE payments ADD COLUMN contradicted INTEGER NOT NULL DEFAULT 0;
   CREATE INDEX payments_contradicted ON payments (listed_at, id) WHERE contradicted = 1;
   CREATE INDEX payments_resolved ON payments (listed_at, id) WHERE contradicted = 2;`,
    backfill: backfillContradicted,
  },
];

/** Rows read and written per round of the back-fill: bounded memory whatever the table holds. */
const BATCH = 500;

/** Fills the listing columns of every payment, in id order, a batch at a time (inside the migration's transaction). */
function backfillListing(db: SqliteConnection): void {
  const read = db.prepare('SELECT id, record FROM payments WHERE id > ? ORDER BY id LIMIT ?');
  const write = db.prepare('UPDATE payments SET listed_at = ?, order_id = ?, tag = ?, late = ?, second = ?, expires_at = ? WHERE id = ?');
  for (let after = ''; ; ) {
    const rows = read.all(after, BATCH);
    // The columns this migration adds: a later one's column is not there yet (and none of its marks either).
    for (const row of rows) write.run(...listingColumns(JSON.parse(String(row.record)) as PaymentRecord).slice(0, 6), String(row.id));
    if (rows.length < BATCH) return;
    after = String(rows[rows.length - 1]!.id);
  }
}

/**
 * Marks each payment whose timeline holds a contradiction line with the newest one (inside the migration's
 * transaction). Such lines are few, one per distinct contradiction, so they are read at once.
 */
function backfillContradicted(db: SqliteConnection): void {
  const lines = db.prepare(`SELECT payment_id, entry FROM payment_history WHERE entry LIKE '%"contradiction"%' ORDER BY seq`).all();
  const newest = new Map<string, { at: number; state: string }>();
  for (const row of lines) {
    const entry = JSON.parse(String(row.entry)) as HistoryEntry;
    if (entry.kind === 'contradiction') newest.set(String(row.payment_id), { at: entry.at, state: entry.state });
  }
  const read = db.prepare('SELECT record FROM payments WHERE id = ?');
  const write = db.prepare('UPDATE payments SET version = ?, record = ?, contradicted = ? WHERE id = ?');
  const now = Date.now();
  for (const [id, contradicted] of newest) {
    const json = read.get(id)?.record;
    if (json === undefined) continue;
    const record = marked(JSON.parse(String(json)) as PaymentRecord, contradicted, now);
    write.run(record.version, JSON.stringify(record), listingColumns(record)[6], id);
  }
}

/** The newest schema's version (`PRAGMA user_version` once every migration ran). */
export const SCHEMA_VERSION = MIGRATIONS.length;

/** Brings the file to the newest schema, one migration per transaction. */
export function migrate(db: SqliteConnection): void {
  const current = Number(db.prepare('PRAGMA user_version').get()?.user_version ?? 0);
  if (current > SCHEMA_VERSION) {
    throw new Error(`createSqliteStore: the database was written by a newer release (schema ${current}); upgrade payin-checkout.`);
  }
  for (let version = current; version < SCHEMA_VERSION; version++) {
    inTransaction(db, () => {
      // Read again under the write lock: another process opening the same file may have migrated it meanwhile.
      if (Number(db.prepare('PRAGMA user_version').get()?.user_version ?? 0) > version) return;
      const migration = MIGRATIONS[version]!;
      db.exec(typeof migration === 'string' ? migration : migration.sql);
      if (typeof migration !== 'string') migration.backfill(db);
      db.exec(`PRAGMA user_version = ${version + 1}`);
    });
  }
}
