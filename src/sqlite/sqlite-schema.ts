/**
 * The SQLite store's tables, versioned with `PRAGMA user_version` so that a file written by an older release is
 * brought forward in place. Payments keep their record as JSON beside the columns that are queried (version for
 * compare-and-set, follow_until for the follow index, final for what is kept for good); orders likewise;
 * the outbox and the announced pairs have a row each.
 */
import type { SqliteConnection } from './sqlite-driver.js';
import { inTransaction } from './sqlite-transaction.js';

const MIGRATIONS: readonly string[] = [
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
  // The console (console-store.ts): listing columns written with every payment (listingOf), filled in here for
  // payments written before; each filter is an index walked newest first. Timelines and the audit log.
  `ALTER TABLE payments ADD COLUMN listed_at INTEGER NOT NULL DEFAULT 0;
   ALTER TABLE payments ADD COLUMN order_id TEXT NOT NULL DEFAULT '';
   ALTER TABLE payments ADD COLUMN tag TEXT NOT NULL DEFAULT 'open';
   ALTER TABLE payments ADD COLUMN late INTEGER NOT NULL DEFAULT 0;
   ALTER TABLE payments ADD COLUMN second INTEGER NOT NULL DEFAULT 0;
   ALTER TABLE payments ADD COLUMN expires_at INTEGER;
   UPDATE payments SET
     listed_at = COALESCE(json_extract(record, '$.listedAt'), updated_at),
     order_id = COALESCE(json_extract(record, '$.view.orderId'), ''),
     tag = CASE WHEN json_extract(record, '$.view.final') THEN json_extract(record, '$.view.outcome') ELSE 'open' END,
     second = json_extract(record, '$.secondPaymentOf') IS NOT NULL,
     expires_at = CAST(strftime('%s', substr(json_extract(record, '$.view.expiresAt'), 1, 19)) AS INTEGER) * 1000;
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
];

/** Brings the file to the newest schema, one migration per transaction. */
export function migrate(db: SqliteConnection): void {
  const current = Number(db.prepare('PRAGMA user_version').get()?.user_version ?? 0);
  if (current > MIGRATIONS.length) {
    throw new Error(`createSqliteStore: the database was written by a newer release (schema ${current}); upgrade payin-checkout.`);
  }
  for (let version = current; version < MIGRATIONS.length; version++) {
    inTransaction(db, () => {
      db.exec(MIGRATIONS[version]!);
      db.exec(`PRAGMA user_version = ${version + 1}`);
    });
  }
}
