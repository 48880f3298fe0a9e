/**
 * The standalone server on PostgreSQL, as a process of its own, with the database stopped under it while the store
 * has a statement of its own in flight (the scratch prune that follows a create, held up by a row an operator's
 * session keeps locked). postgres.js 3.4.9 ended the whole process there: a transaction whose connection closed
 * sent its ROLLBACK on a socket that was already gone, an uncaught "TypeError: Cannot read properties of null
 * (reading 'write')" (porsager/postgres#1208). The process must stay up: a create gets the retryable 503, a
 * callback a 5xx so the service sends it again, and once the database is back both go through, the payment
 * announced once. A process is needed to see it: a test runner keeps itself alive through an uncaught error.
 */
import postgres from 'postgres';
import { afterAll, describe, expect, it } from 'vitest';
import { usePostgresServer } from '../postgres/postgres-server-harness.js';
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

async function create(cluster: Cluster, orderId: string): Promise<{ status: number; body: any }> {
  const server = cluster.servers[0]!;
  try {
    const answer = await fetch(`${server.url}/payin/payments`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ orderId, method: 'upi' }),
    });
    return { status: answer.status, body: await answer.json() };
  } catch (error) {
    throw new Error(`the proxy process did not answer (${String(error)}):\n${server.output().slice(-3_000)}`);
  }
}

describe('the standalone server when PostgreSQL stops under a statement of its own', () => {
  it('stays up: 503 and a refused callback while the database is gone, both served once it is back', async () => {
    const admin = postgres(pg.url, { max: 1, onnotice: () => {} });
    cleanup.push(() => admin.end({ timeout: 1 }));
    await admin`CREATE DATABASE outage`;
    const storeUrl = pg.url.replace(/\/postgres$/, '/outage');
    const cluster = await startCluster({ build: build.build, cwd: build.dir, storeUrl, servers: 1 });
    cleanup.push(() => cluster.close());
    const server = cluster.servers[0]!;

    // An expired lease the prune will want, kept locked by an operator's open transaction. One simple query on a
    // session of its own: no client transaction that the stop below could trip over.
    const operator = postgres(storeUrl, { max: 1, onnotice: () => {} });
    cleanup.push(() => operator.end({ timeout: 1 }));
    await operator`INSERT INTO payin.leases (key, owner, expires_at) VALUES ('operator-held', 'operator', 0)`;
    await operator.unsafe(`BEGIN; SELECT 1 FROM payin.leases WHERE key = 'operator-held' FOR UPDATE`);

    // The create's first write starts the once-a-minute prune, which waits for that row (up to lock_timeout, 5 s).
    const created = await create(cluster, 'PG-STOP-1');
    expect(created.status).toBe(201);
    const id = created.body.payment.id as string;
    const observer = postgres(storeUrl, { max: 1, onnotice: () => {} });
    cleanup.push(() => observer.end({ timeout: 1 }));
    await eventually(
      async () =>
        (await observer`SELECT 1 FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND query LIKE '%DELETE FROM leases%'`).length === 1,
      4_000,
      'the prune to wait for the locked row',
    );

    await pg.stop();
    const refused = await create(cluster, 'PG-STOP-2');
    expect({ status: refused.status, code: refused.body.error?.code }).toEqual({ status: 503, code: 'unavailable' });
    cluster.sandbox.act(id, 'pay');
    await eventually(
      () => cluster.sandbox.payment(id)!.deliveries.some((d) => (d.httpStatus ?? 0) >= 500),
      10_000,
      'a callback answered 5xx',
    );
    expect(server.running()).toBe(true);
    expect(server.output()).not.toContain('TypeError');

    await pg.start();
    await eventually(async () => (await create(cluster, 'PG-STOP-2')).status === 201, 15_000, 'a create to go through');
    await eventually(() => cluster.webhooks.some((w) => w.payment.id === id && w.payment.outcome === 'paid'), 15_000, 'paid announced');
    const paid = cluster.webhooks.filter((w) => w.payment.id === id && w.payment.outcome === 'paid');
    expect(new Set(paid.map((w) => w.id)).size).toBe(1); // a webhook sent again keeps its id: one announcement
    expect(server.running()).toBe(true);
  }, 90_000);
});
