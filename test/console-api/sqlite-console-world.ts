/**
 * The world of a console test whose marks must outlive a restart: for each test, a SQLite ledger in a folder of its
 * own, the real sandbox and a proxy with the console for two operators (ana and bo; anyone else is a stranger).
 * `restart()` is the shop's server restarting on the same file. What it returns stands for the test's world.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach } from 'vitest';
import type { ConsoleOptions } from '../../src/console-api/console-options.js';
import { createSqliteStore, type SqliteStore } from '../../src/sqlite/index.js';
import { type Live, startLive } from '../proxy/sandbox-harness.js';
import { OPERATOR_HEADER } from './console-harness.js';

/** Two operators of the shop; anyone else is a stranger. */
export const TWO_OPERATORS: ConsoleOptions = {
  authorizeOperator: (request) => ['ana', 'bo'].includes(request.headers.get(OPERATOR_HEADER) ?? ''),
  operatorName: (request) => request.headers.get(OPERATOR_HEADER) ?? undefined,
};

export interface SqliteConsoleWorld {
  readonly live: Live;
  readonly store: SqliteStore;
  /** Closes the store and starts the proxy again on a new one over the same file. */
  restart(): Promise<void>;
}

/** The world for each test of the file; `prefix` names its temporary folder. */
export function useSqliteConsoleWorld(prefix: string): SqliteConsoleWorld {
  let dir = '';
  let store: SqliteStore | undefined;
  let live: Live | undefined;
  const path = () => join(dir, 'ledger.db');
  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), prefix));
    store = createSqliteStore({ path: path() });
    live = await startLive({ store, console: TWO_OPERATORS, reconcileEveryMs: 0 });
  });
  afterEach(async () => {
    await live?.close();
    await store?.close();
    rmSync(dir, { recursive: true, force: true });
  });
  const ready = <T>(value: T | undefined): T => {
    if (value === undefined) throw new Error('the console world is not up: useSqliteConsoleWorld() is read outside a test');
    return value;
  };
  return {
    get live() {
      return ready(live);
    },
    get store() {
      return ready(store);
    },
    async restart() {
      await ready(store).close();
      store = createSqliteStore({ path: path() });
      await ready(live).restart({ store });
    },
  };
}
