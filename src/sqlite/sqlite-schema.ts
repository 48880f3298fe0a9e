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
