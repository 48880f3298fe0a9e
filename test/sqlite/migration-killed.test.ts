/**
 * The first start of a new release killed with SIGKILL in the middle of bringing a ledger of the first schema
 * forward (the back-fill of the console's listing columns, 500 rows a round, migrate-until-killed.mjs stops it
 * after 700): each migration is one transaction, so the file is left as it was, schema 1 with every payment, and the
 * next start runs the migration again, whole.
 */
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/shared/manual-clock.js';
import { createSqliteStore } from '../../src/sqlite/index.js';
import { SCHEMA_VERSION } from '../../src/sqlite/sqlite-schema.js';
import { record } from '../proxy/infrastructure/store-contract.js';
import { useCompiledCli } from '../support/compiled-cli.js';
import { FIRST_SCHEMA } from './support/first-schema.js';

const SCRIPT = fileURLToPath(new URL('./support/migrate-until-killed.mjs', import.meta.url));
const PAYMENTS = 1_200;
const build = useCompiledCli();

/** The file's schema version, its payments, and those whose listing columns are filled in (order_id). */
function fileState(path: string): { version: number; payments: number; listed: number } {
  const raw = new Database(path, { readonly: true });
  const columns = (raw.pragma('table_info(payments)') as { name: string }[]).map((c) => c.name);
  const count = (sql: string) => (raw.prepare(sql).get() as { n: number }).n;
  const state = {
    version: raw.pragma('user_version', { simple: true }) as number,
    payments: count('SELECT count(*) AS n FROM payments'),
    listed: columns.includes('order_id') ? count("SELECT count(*) AS n FROM payments WHERE order_id = 'A-1'") : 0,
  };
  raw.close();
  return state;
}

describe('a SQLite migration killed halfway', () => {
  it(`leaves a file of the first schema as it was, and the next start brings all ${PAYMENTS} payments forward`, async () => {
    const path = join(build.dir, 'first-schema.db');
    const old = new Database(path);
    old.exec(FIRST_SCHEMA);
    old.pragma('user_version = 1');
    const insert = old.prepare('INSERT INTO payments (id, version, record, final, follow_until, updated_at) VALUES (?, 1, ?, 0, NULL, ?)');
    old.transaction(() => {
      for (let i = 0; i < PAYMENTS; i++) insert.run(`old-${i}`, JSON.stringify({ ...record(`old-${i}`, 1), updatedAt: i }), i);
    })();
    old.close();

    const child = spawn(process.execPath, [SCRIPT, build.build, path, '700'], { stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    const exited = new Promise<void>((done) => child.once('exit', () => done()));
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`the migration did not reach its crash point:\n${output}`)), 20_000);
      const read = (chunk: Buffer) => {
        output += chunk;
        if (!output.includes('crash point migration')) return;
        clearTimeout(timer);
        resolve();
      };
      child.stdout.on('data', read);
      child.stderr.on('data', read);
    });
    child.kill('SIGKILL');
    await exited;
    expect(fileState(path)).toEqual({ version: 1, payments: PAYMENTS, listed: 0 });

    const store = createSqliteStore({ path, clock: new ManualClock() });
    expect((await store.listPayments({ filter: 'all', orderId: 'A-1', limit: 10, now: 0 })).payments).toHaveLength(10);
    await store.close();
    expect(fileState(path)).toEqual({ version: SCHEMA_VERSION, payments: PAYMENTS, listed: PAYMENTS });
  }, 60_000);
});
