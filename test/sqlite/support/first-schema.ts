/** The SQLite store's tables as its first release wrote them (schema 1), for the tests that bring such a file forward. */
export const FIRST_SCHEMA = `CREATE TABLE payments (id TEXT PRIMARY KEY, version INTEGER NOT NULL, record TEXT NOT NULL, final INTEGER NOT NULL,
    follow_until INTEGER, updated_at INTEGER NOT NULL);
  CREATE TABLE orders (order_id TEXT PRIMARY KEY, record TEXT NOT NULL, paid INTEGER NOT NULL, updated_at INTEGER NOT NULL);
  CREATE TABLE leases (key TEXT PRIMARY KEY, owner TEXT NOT NULL, expires_at INTEGER NOT NULL);
  CREATE TABLE outbox (payment_id TEXT NOT NULL, state TEXT NOT NULL, attempts INTEGER NOT NULL, due_at INTEGER NOT NULL,
    held_until INTEGER NOT NULL, PRIMARY KEY (payment_id, state));
  CREATE TABLE announced (payment_id TEXT NOT NULL, state TEXT NOT NULL, PRIMARY KEY (payment_id, state));`;
