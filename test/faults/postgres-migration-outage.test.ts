/**
 * The standalone server's first start of a release that migrates its PostgreSQL schema, as a process of its own,
 * with the database stopped under the migration (held up by an operator's session that keeps the payments table
 * locked, as a long query or a forgotten `psql` transaction would). postgres.js 3.4.9 ended the whole process
 * there when the migration ran in its `sql.begin()`: the ROLLBACK went out on a socket already gone, an uncaught
 * "TypeError: Cannot read properties of null (reading 'write')" (porsager/postgres#1208). The process must stay
 * up, start without its database as it does when the database is down, and finish the migration, once, when the
 * database is back. A process is needed to see it: a test runner keeps itself alive through an uncaught error.
 */
import postgres from 'postgres';
import { afterAll, describe, expect, it } from 'vitest';
import { listed } from '../proxy/infrastructure/console-store-contract.js';
import { usePostgresServer } from '../postgres/postgres-server-harness.js';
import { createVersion1Schema } from '../postgres/schema-version-1.js';
import { eventually } from '../proxy/sandbox-harness.js';
import { useCompiledCli } from '../support/compiled-cli.js';
import { startCluster, type Cluster } from './support/storm-cluster.js';

const build = useCompiledCli();
const pg = usePostgresServer();
/** Processes and clients a test started, stopped after the file's tests in the reverse order. */
const cleanup: (() => Promise<unknown>)[] = [];
afterAll(async () => {
  for (const step of cleanup.reverse()) await step().catch(() => {});
});

async function create(cluster: Cluster, orderId: string): Promise<number> {
  const answer = await fetch(`${cluster.servers[0]!.url}/payin/payments`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ orderId, method: 'upi' }),
  });
  await answer.body?.cancel();
  return answer.status;
}

describe('the standalone server when PostgreSQL stops under a schema migration', () => {
  it('stays up, then finishes the migration once when the database is back', async () => {
    const admin = postgres(pg.url, { max: 1, onnotice: () => {} });
    cleanup.push(() => admin.end({ timeout: 1 }));
    await admin`CREATE DATABASE migrating`;
    const storeUrl = pg.url.replace(/\/postgres$/, '/migrating');
    const db = postgres(storeUrl, { max: 1, onnotice: () => {} });
    cleanup.push(() => db.end({ timeout: 1 }));
    await createVersion1Schema(db, 'payin');
    const old = listed('old-paid', 5_000, { outcome: 'paid', orderId: 'OLD-1' });
    await db`INSERT INTO payin.payments (id, version, record, final, updated_at)
      VALUES (${old.view.id}, 1, ${JSON.stringify(old)}::text::jsonb, true, 0)`;

    // An operator's open transaction on the payments table: migration 2's ALTER TABLE waits for it. One simple
    // query on a session of its own, so no client transaction of this test's can trip over the stop.
    const operator = postgres(storeUrl, { max: 1, onnotice: () => {} });
    cleanup.push(() => operator.end({ timeout: 1 }));
    await operator.unsafe('BEGIN; LOCK TABLE payin.payments IN ACCESS SHARE MODE');

    const starting = startCluster({ build: build.build, cwd: build.dir, storeUrl, servers: 1 });
    starting.then((cluster) => cleanup.push(() => cluster.close())).catch(() => {});
    const observer = postgres(storeUrl, { max: 1, onnotice: () => {} });
    await eventually(
      async () =>
        (await observer`SELECT 1 FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND query LIKE '%ALTER TABLE payments%'`).length ===
        1,
      20_000,
      'the migration to wait for the locked table',
    );
    await observer.end({ timeout: 1 });

    await pg.stop();
    const cluster = await starting; // rejects when the process exits before it listens
    const server = cluster.servers[0]!;
    expect(await create(cluster, 'MIG-1')).toBe(503);
    const health = await fetch(`${server.url}/healthz`);
    await health.body?.cancel();
    expect(health.status).toBe(503);
    expect(server.running()).toBe(true);
    expect(server.output()).not.toContain('TypeError');

    await pg.start();
    await eventually(async () => (await create(cluster, 'MIG-1')) === 201, 15_000, 'a create to go through');
    expect(server.running()).toBe(true);
    const versions = await db`SELECT version FROM payin.schema_migrations ORDER BY version`;
    expect(versions.map((row) => row.version)).toEqual([1, 2, 3, 4, 5]);
    // Migration 2's back-fill ran with it: the old payment is filed under its outcome and order.
    const [row] = await db`SELECT tag, order_id, listed_at::int AS listed_at FROM payin.payments WHERE id = 'old-paid'`;
    expect(row).toEqual({ tag: 'paid', order_id: 'OLD-1', listed_at: 5_000 });
  }, 120_000);
});
