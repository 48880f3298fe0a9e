/**
 * Which SQLite the store runs on: the runtime's own where it has one, so that a fresh install compiles nothing
 * (better-sqlite3 builds SQLite from C source wherever no prebuilt binary can be fetched, which takes minutes).
 * Bun has `bun:sqlite`; Node 22.5+ and Deno have `node:sqlite`; anywhere else (Node 20) better-sqlite3, an
 * optional peer dependency loaded only then. The three differ in small ways (Bun answers a missing row with null,
 * node:sqlite has no pragma or transaction helpers), so each is wrapped into the one small connection shape the
 * store uses: exec, prepare (run / get / all) and close. What the file refuses to take is said with the file and
 * the fix (sqlite-errors.ts), in every call, so that a request's log line says it as the health check does.
 */
import { createRequire } from 'node:module';
import { builtinModule } from '../shared/builtin-module.js';
import { explained } from './sqlite-errors.js';

export type SqliteDriverName = 'bun:sqlite' | 'node:sqlite' | 'better-sqlite3';

export type SqliteValue = string | number | bigint | null;
export type SqliteRow = Record<string, unknown>;

export interface SqliteStatement {
  run(...params: SqliteValue[]): { changes: number | bigint };
  /** The first row, or undefined when there is none. */
  get(...params: SqliteValue[]): SqliteRow | undefined;
  all(...params: SqliteValue[]): SqliteRow[];
}

export interface SqliteConnection {
  readonly driver: SqliteDriverName;
  exec(sql: string): void;
  prepare(sql: string): SqliteStatement;
  close(): void;
}

/** What the three drivers have in common, before wrapping. */
interface RawStatement {
  run(...params: SqliteValue[]): { changes: number | bigint };
  get(...params: SqliteValue[]): SqliteRow | null | undefined;
  all(...params: SqliteValue[]): SqliteRow[];
}
interface RawDatabase {
  exec(sql: string): unknown;
  prepare(sql: string): RawStatement;
  close(): unknown;
}
type Open = (path: string) => RawDatabase;

/** Opens `path` with `driver`, or with the first of bun:sqlite, node:sqlite and better-sqlite3 that this runtime has. */
export function openSqlite(path: string, driver?: SqliteDriverName): SqliteConnection {
  const [name, open] = driver ? [driver, loadDriver(driver)] : pickDriver();
  if (!open) {
    throw new Error(
      name === 'better-sqlite3'
        ? 'createSqliteStore needs better-sqlite3: run `npm install better-sqlite3`.'
        : `createSqliteStore: this runtime has no ${name} (bun:sqlite is Bun's; node:sqlite needs Node 22.5+ or Deno).`,
    );
  }
  const said = <T>(work: () => T): T => {
    try {
      return work();
    } catch (error) {
      throw path === ':memory:' ? error : explained(path, error);
    }
  };
  const db = said(() => open(path));
  return {
    driver: name,
    exec: (sql) => said(() => void db.exec(sql)),
    prepare: (sql) => {
      const statement = said(() => db.prepare(sql));
      return {
        run: (...params) => said(() => statement.run(...params)),
        get: (...params) => said(() => statement.get(...params) ?? undefined),
        all: (...params) => said(() => statement.all(...params)),
      };
    },
    close: () => void db.close(),
  };
}

function pickDriver(): [SqliteDriverName, Open] {
  for (const name of ['bun:sqlite', 'node:sqlite'] as const) {
    const open = loadDriver(name);
    if (open) return [name, open];
  }
  const open = loadDriver('better-sqlite3');
  if (open) return ['better-sqlite3', open];
  throw new Error(
    'createSqliteStore needs SQLite: this runtime has none of its own (Node 22.5+, Deno and Bun have), so run `npm install better-sqlite3`.',
  );
}

function loadDriver(name: SqliteDriverName): Open | undefined {
  if (name === 'bun:sqlite') {
    if (!(globalThis as { Bun?: unknown }).Bun) return undefined;
    const { Database } = createRequire(import.meta.url)('bun:sqlite') as { Database: new (path: string) => RawDatabase };
    return (path) => new Database(path);
  }
  if (name === 'node:sqlite') {
    // Node 22.5 to 22.12 have it only behind --experimental-sqlite: asking for it then counts as absent.
    const sqlite = builtinModule<{ DatabaseSync: new (path: string) => RawDatabase }>('node:sqlite', 'DatabaseSync');
    return sqlite ? (path) => new sqlite.DatabaseSync(path) : undefined;
  }
  try {
    const Database = createRequire(import.meta.url)('better-sqlite3') as new (path: string) => RawDatabase;
    return (path) => new Database(path);
  } catch {
    return undefined;
  }
}
