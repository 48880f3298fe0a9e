/**
 * `createSqliteStore({path})`: the proxy's durable store for one process. It runs on the runtime's own SQLite
 * where there is one (bun:sqlite on Bun, node:sqlite on Node 22.5+ and Deno) and on better-sqlite3 otherwise, an
 * optional peer dependency loaded only then, so that shops on memory, Redis or PostgreSQL never install a native
 * module; when none is there the error names the command that adds one.
 */
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import type { Clock } from '../shared/clock.js';
import { openSqlite, type SqliteDriverName } from './sqlite-driver.js';
import { SqliteStore } from './sqlite-store.js';
import { optionNames, refuseUnknownNames } from '../shared/option-names.js';

export interface SqliteStoreOptions {
  /** The database file (created with its folder when missing), or ':memory:' for a throwaway one. */
  path: string;
  /** How long open payments and unpaid orders are kept after their last write. Default 24 hours. */
  ttlMs?: number;
  clock?: Clock;
  /**
   * Which SQLite to use. Default: bun:sqlite on Bun, node:sqlite where the runtime has it (Node 22.5+, Deno),
   * else better-sqlite3. The file format is the same, so a shop may switch between them.
   */
  driver?: SqliteDriverName;
}

const OPTION_NAMES = optionNames<SqliteStoreOptions>({ path: true, ttlMs: true, clock: true, driver: true });

export function createSqliteStore(options: SqliteStoreOptions): SqliteStore {
  refuseUnknownNames('createSqliteStore: options', options, OPTION_NAMES);
  const path = options?.path?.trim();
  if (!path) throw new TypeError("createSqliteStore: missing path, such as './payin.db'.");
  if (path !== ':memory:') mkdirSync(dirname(path), { recursive: true });
  return new SqliteStore(openSqlite(path, options.driver), { ttlMs: options.ttlMs, clock: options.clock });
}
