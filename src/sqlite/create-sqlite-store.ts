/**
 * `createSqliteStore({path})`: the proxy's durable store for one Node process. better-sqlite3 is an optional
 * peer dependency, loaded only here, so that shops on memory or Redis never install a native module; when it is
 * missing the error names the command that adds it.
 */
import { createRequire } from 'node:module';
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import type { Database } from 'better-sqlite3';
import type { Clock } from '../shared/clock.js';
import { SqliteStore } from './sqlite-store.js';

export interface SqliteStoreOptions {
  /** The database file (created with its folder when missing), or ':memory:' for a throwaway one. */
  path: string;
  /** How long open payments and unpaid orders are kept after their last write. Default 24 hours. */
  ttlMs?: number;
  clock?: Clock;
}

type DatabaseConstructor = new (path: string) => Database;

export function createSqliteStore(options: SqliteStoreOptions): SqliteStore {
  const path = options?.path?.trim();
  if (!path) throw new TypeError("createSqliteStore: missing path, such as './payin.db'.");
  const Driver = loadDriver();
  if (path !== ':memory:') mkdirSync(dirname(path), { recursive: true });
  return new SqliteStore(new Driver(path), { ttlMs: options.ttlMs, clock: options.clock });
}

function loadDriver(): DatabaseConstructor {
  try {
    return createRequire(import.meta.url)('better-sqlite3') as DatabaseConstructor;
  } catch (error) {
    throw new Error('createSqliteStore needs better-sqlite3: run `npm install better-sqlite3`.', { cause: error });
  }
}
