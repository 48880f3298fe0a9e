/**
 * What the SQLite store's ping (behind `/healthz`, `payin_store_up` and `proxy.checkStore()`) must see: not only a
 * file that can be read, but one the ledger can still write. A file that went read-only answers every read and
 * refuses every write, so a read alone called it healthy while every shopper got 503.
 */
import { mkdtempSync, renameSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { createSqliteStore, SqliteStore } from '../../src/sqlite/index.js';
import type { SqliteConnection } from '../../src/sqlite/sqlite-driver.js';
import { SCHEMA_VERSION } from '../../src/sqlite/sqlite-schema.js';
import { record } from '../proxy/infrastructure/store-contract.js';

const dir = mkdtempSync(join(tmpdir(), 'payin-sqlite-health-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let n = 0;
const freshPath = () => join(dir, `store-${++n}.db`);

/** The file opened read-only, as SQLite opens one its process may not write (root ignores a chmod, so asked here). */
function readOnlyConnection(path: string): SqliteConnection {
  const db = new Database(path, { readonly: true });
  return {
    driver: 'better-sqlite3',
    exec: (sql) => void db.exec(sql),
    prepare: (sql) => db.prepare(sql) as never,
    close: () => void db.close(),
  };
}

describe('SqliteStore ping', () => {
  it('resolves on a file it can write, and leaves nothing behind', async () => {
    const path = freshPath();
    const store = createSqliteStore({ path });
    await store.putPayment(record('p1', 1), 0);
    await expect(store.ping()).resolves.toBeUndefined();
    await expect(store.ping()).resolves.toBeUndefined();
    expect(await store.getPayment('p1')).toEqual(record('p1', 1));
    await store.close();
    const raw = new Database(path);
    // The ping writes the schema's version over itself: it must still be the newest.
    expect(raw.pragma('user_version', { simple: true })).toBe(SCHEMA_VERSION);
    raw.close();
  });

  it('rejects on a file that can be read but not written, as every write then fails', async () => {
    const path = freshPath();
    await createSqliteStore({ path }).close();
    const store = new SqliteStore(readOnlyConnection(path));
    await expect(store.putPayment(record('p1', 1), 0)).rejects.toThrow(/readonly/);
    await expect(store.ping()).rejects.toThrow(/readonly/);
    await store.close();
  });
});

describe('SqliteStore ping, once its file is gone', () => {
  it.each([
    ['removed', (path: string) => rmSync(path)],
    ['replaced by another file', (path: string) => renameSync(`${path}.other`, path)],
  ])(
    'rejects naming the file when it was %s since the store opened it (writes would go to a file no restart finds)',
    async (_how, change) => {
      const path = freshPath();
      await createSqliteStore({ path: `${path}.other` }).close();
      const store = createSqliteStore({ path });
      await store.putPayment(record('p1', 1), 0);
      change(path);
      await store.putPayment(record('p2', 1), 0); // SQLite itself carries on, into the file that is gone
      await expect(store.ping()).rejects.toThrow(`the SQLite file ${path} was removed or replaced since it was opened`);
      await store.close();
    },
  );
});
