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
    db.exec('ROLLBACK');
    throw error;
  }
}
