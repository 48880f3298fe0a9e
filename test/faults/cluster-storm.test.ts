/**
 * The storm again, on the standalone server as shops run it: separate processes on one store (two on PostgreSQL,
 * two on Redis, one on SQLite), a client that goes to the other server when one does not answer (a load
 * balancer's retry), the service duplicating and reordering its callbacks, every callback replayed at the end, and
 * `kill -9` of a server three times mid-storm (twice while payments are being created, once while the callbacks
 * pour in), each restarted on its port. Counted at the end, from what the shop's webhook endpoint verified and
 * what the service holds: 0 payments announced twice, 0 final states lost, 0 wrong, 0 orders with two payments at
 * the service. CLUSTER_STORM_PAYMENTS payments each (200 in `npm test`, 1,000 in `npm run soak`).
 *
 * "Announced twice" counts what a shop acts on: Standard Webhooks receivers drop a webhook-id they have seen, so
 * a delivery whose 2xx was answered to a process killed before it wrote down the success, and sent again with the
 * same id, is not a second announcement. Those repeats are printed beside the counts.
 */
import { join } from 'node:path';
import postgres from 'postgres';
import { describe, expect, it } from 'vitest';
import { usePostgresServer } from '../postgres/postgres-server-harness.js';
import { eventually, seeded } from '../proxy/sandbox-harness.js';
import { useRedisServer } from '../redis/redis-server-harness.js';
import { useCompiledCli } from '../support/compiled-cli.js';
import { startCluster, type Cluster } from './support/storm-cluster.js';
import { actAsPayer, pool } from './storm-parts.js';

const PAYMENTS = Number(process.env.CLUSTER_STORM_PAYMENTS ?? 200);
const CONCURRENCY = 20;
const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

const build = useCompiledCli();
const pg = usePostgresServer();
const redis = useRedisServer();

const VARIANTS = [
  {
    name: 'two servers on one PostgreSQL',
    servers: 2,
    storeUrl: async () => {
      const admin = postgres(pg.url, { max: 1, onnotice: () => {} });
      await admin`CREATE DATABASE storm`;
      await admin.end();
      return pg.url.replace(/\/postgres$/, '/storm');
    },
  },
  { name: 'two servers on one Redis', servers: 2, storeUrl: async () => redis.url },
  { name: 'one server on SQLite', servers: 1, storeUrl: async () => `sqlite:${join(build.dir, 'storm.db')}` },
];

/** POSTs to the preferred server, going to the next one (or trying again) while a server is down or failing. */
async function post(cluster: Cluster, preferred: number, path: string, body: unknown): Promise<{ status: number; body: any }> {
  const { servers } = cluster;
  let last = '';
  for (let attempt = 0; attempt < 600; attempt++) {
    const server = servers[(preferred + attempt) % servers.length]!;
    try {
      const answer = await fetch(`${server.url}${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
      const text = await answer.text();
      if (answer.status < 500) return { status: answer.status, body: JSON.parse(text) };
      last = `HTTP ${answer.status} ${text}`;
    } catch (error) {
      last = String(error);
    }
    await sleep(50);
  }
  throw new Error(`no server answered ${path}: ${last}`);
}

describe('a storm through standalone servers killed mid-storm', () => {
  it.each(VARIANTS)(
    `$name: ${PAYMENTS} payments, 3 x kill -9, 0 twice, 0 lost, 0 wrong, 0 doubled`,
    async (variant) => {
      const cluster = await startCluster({
        build: build.build,
        cwd: build.dir,
        storeUrl: await variant.storeUrl(),
        servers: variant.servers,
      });
      try {
        const kills: Promise<void>[] = [];
        const killAndRestart = (index: number) => {
          const server = cluster.servers[index % cluster.servers.length]!;
          kills.push(server.kill().then(() => server.start()));
        };
        const orders = Array.from({ length: PAYMENTS }, (_, i) => `C-${i}`);
        const ids: string[] = [];
        await pool(orders, CONCURRENCY, async (orderId, i) => {
          if (i === Math.floor(PAYMENTS / 4)) killAndRestart(0);
          if (i === Math.floor((PAYMENTS * 2) / 3)) killAndRestart(1);
          const { status, body } = await post(cluster, i, '/payin/payments', { orderId, method: 'upi' });
          expect([200, 201], JSON.stringify(body)).toContain(status);
          ids[i] = body.payment.id;
        });
        await Promise.all(kills.splice(0));

        const random = seeded(4242);
        const expected = new Map<string, string>();
        await pool(ids, CONCURRENCY, async (id, i) => {
          if (i === Math.floor(PAYMENTS / 2)) killAndRestart(0);
          expected.set(id, actAsPayer(cluster.sandbox, id, random()));
          await sleep(1); // the callbacks pour in while the payers go on
        });
        await Promise.all(kills.splice(0));

        const finals = () => cluster.webhooks.filter((w) => w.payment.final);
        const announced = () => new Set(finals().map((w) => w.payment.id));
        await eventually(() => announced().size === PAYMENTS, 180_000, 'every payment to be announced final').catch((error: Error) => {
          const missing = ids.filter((id) => !announced().has(id));
          const states = missing.slice(0, 5).map((id) => `${id}: ${cluster.sandbox.payment(id)?.state}`);
          const logs = cluster.servers.map((server) => server.output().slice(-3_000)).join('\n---\n');
          throw new Error(`${error.message}: ${missing.length} missing (${states.join(', ')})\n${logs}`);
        });
        await cluster.sandbox.idle();
        // Every genuine callback again, as a replay days later would bring it.
        await pool(cluster.delivered.splice(0), CONCURRENCY, async ({ url, body, signature }) => {
          const answer = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', signature }, body });
          expect(answer.status).toBe(200);
        });
        // A graceful stop lets the webhooks in flight finish, so that nothing arrives after the count.
        await Promise.all(cluster.servers.map((server) => server.stop()));

        const byPayment = new Map<string, { ids: Set<string>; first: string }>();
        let redelivered = 0;
        for (const { id, payment } of finals()) {
          const seen = byPayment.get(payment.id);
          if (!seen) byPayment.set(payment.id, { ids: new Set([id]), first: payment.outcome });
          else if (seen.ids.has(id)) redelivered++;
          else seen.ids.add(id);
        }
        const twice = [...byPayment.values()].filter((p) => p.ids.size > 1).length;
        const lost = ids.filter((id) => !byPayment.has(id)).length;
        const wrong = ids.filter((id) => byPayment.get(id)?.first !== expected.get(id)).length;
        const perOrder = new Map<string, number>();
        for (const payment of cluster.sandbox.payments()) perOrder.set(payment.orderId, (perOrder.get(payment.orderId) ?? 0) + 1);
        const doubled = [...perOrder.values()].filter((n) => n > 1).length;
        console.log(
          `cluster storm, ${variant.name}: ${PAYMENTS} payments, 3 x kill -9; announced twice ${twice}, final states lost ${lost}, ` +
            `wrong ${wrong}, orders with two payments at the service ${doubled}; the same webhook-id sent again after a kill: ${redelivered}`,
        );
        expect({ twice, lost, wrong, doubled, orders: perOrder.size }).toEqual({
          twice: 0,
          lost: 0,
          wrong: 0,
          doubled: 0,
          orders: PAYMENTS,
        });
      } finally {
        await cluster.close();
      }
    },
    400_000,
  );
});
