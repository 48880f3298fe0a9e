/**
 * One transaction on a synchronous SQLite connection, the same on every driver (node:sqlite has no helper for it):
 * BEGIN IMMEDIATE takes the write lock up front, so a read inside cannot be overtaken by another connection's write
 * before this one commits; anything thrown rolls it all back.
 */
import type { SqliteConnection } from './sqlite-driver.js';

export function inTransaction<T>(db: SqliteConnection, work: () => T): T {
  db.exec('BEGIN IMMEDIATE');
  try {
    const result = work();
    db.exec('COMMIT');
    return result;
  } catch (error) {
    try {
      db.exec('ROLLBACK');
    } catch {
      // A full disk (or an I/O error) rolls the transaction back by itself, and the ROLLBACK then fails with "no
      // transaction is active": the first error is what went wrong, and the one the log must name.
    }
    throw error;
  }
}
