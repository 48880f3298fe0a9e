/**
 * Two proxy instances on one real PostgreSQL (and on one real Redis), in front of one real sandbox that is slow to answer: a create for an
 * order holds the order's lease for as long as it works, however long the service takes, so that the shopper's
 * retry (or a second tab) that reaches the other instance meanwhile waits for it instead of making a second
 * payment of the order at the service. The lease still lapses for a create that crashed (the store contract).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPostgresStore } from '../../src/postgres/index.js';
import { createPayinProxy, type PayinProxy } from '../../src/proxy/index.js';
import type { ProxyStore } from '../../src/proxy/infrastructure/store.js';
import { silentLogger } from '../../src/proxy/logger.js';
import { createRedisStore } from '../../src/redis/index.js';
import { usePostgresServer } from '../postgres/postgres-server-harness.js';
import { eventually, startLive, type Live } from '../proxy/sandbox-harness.js';
import { startRedisServer, type RedisServer } from '../redis/redis-server-harness.js';

const postgresServer = usePostgresServer();
let redisServer: RedisServer | undefined;
beforeAll(async () => {
  redisServer = await startRedisServer();
});
const cleanup: (() => Promise<unknown>)[] = [];
afterAll(async () => {
  for (const step of cleanup.reverse()) await step().catch(() => {});
  await redisServer?.stop();
});

/** The stores several instances share: each call is one instance's store, on the namespace `name`. */
const sharedStores: { store: string; open: (name: string) => ProxyStore & { close(): Promise<void> } }[] = [
  { store: 'PostgreSQL', open: (name) => createPostgresStore({ url: postgresServer.url, schema: name, connectTimeoutSeconds: 2 }) },
  { store: 'Redis', open: (name) => createRedisStore({ url: redisServer!.url, keyPrefix: `${name}:` }) },
];

/** Far shorter than the service's answer, so that an unrenewed lease lapses in the middle of the create. */
const CLAIM_LEASE_MS = 1_000;
const SERVICE_LATENCY_MS = 2_000;

/** Instance A answers over loopback as a shop mounts it; instance B is a second proxy on the same schema and service. */
async function twoInstances(open: (name: string) => ProxyStore & { close(): Promise<void> }): Promise<{ live: Live; b: PayinProxy }> {
  const name = `lease_${Math.random().toString(36).slice(2)}`;
  const stores = [open(name), open(name)];
  const common = { reconcileEveryMs: 0, timeouts: { claimLeaseMs: CLAIM_LEASE_MS } };
  const live = await startLive({ ...common, store: stores[0]! });
  const b = createPayinProxy({
    ...common,
    store: stores[1]!,
    provider: { baseUrl: live.sandboxUrl, merchantId: 'demo-merchant', token: 'demo-token', secret: 'demo-secret' },
    callbackUrl: `${live.proxyUrl}/payin/callback`,
    resolveOrder: () => ({ amount: '499.00', currency: 'INR' }),
    logger: silentLogger,
    env: {},
  });
  cleanup.push(
    () => live.close(),
    () => b.close(),
    ...stores.map((store) => () => store.close()),
  );
  return { live, b };
}

async function createOn(proxy: PayinProxy, orderId: string): Promise<{ status: number; body: any }> {
  const request = new Request('http://127.0.0.1/payin/payments', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ orderId, method: 'upi' }),
  });
  const response = await proxy(request);
  return { status: response.status, body: await response.json() };
}

describe.each(sharedStores)('two instances on one $store creating for one order while the service is slow', ({ open }) => {
  it('makes one payment at the service: the retry on the other instance waits for the create in progress', async () => {
    const { live, b } = await twoInstances(open);
    live.sandbox.setFaults({ latencyMs: SERVICE_LATENCY_MS });
    const first = live.create('SLOW-1');
    // A holds the order and is asking the service about it (the store has never seen it)...
    await eventually(() => live.apiCalls.length > 0, 5_000, 'instance A to ask the service');
    // ...for longer than the lease, when the shopper's retry reaches B.
    await new Promise((resolve) => setTimeout(resolve, CLAIM_LEASE_MS + 400));
    const retry = await createOn(b, 'SLOW-1');
    // B has answered: what A asks the service after the create under way need not wait 2 s more.
    live.sandbox.setFaults({});
    const made = await first;
    expect(made.status).toBe(201);
    // B either waited and got A's payment, or answered a retryable "still creating": never a payment of its own.
    if (retry.status === 504) expect(retry.body.error.code).toBe('upstream_timeout');
    else expect([retry.status, retry.body.payment.id]).toEqual([200, made.body.payment.id]);
    const atService = live.sandbox.payments().filter((p) => p.orderId === 'SLOW-1');
    expect(atService.map((p) => p.id)).toEqual([made.body.payment.id]);

    const again = await createOn(b, 'SLOW-1');
    expect([again.status, again.body.payment.id]).toEqual([200, made.body.payment.id]);
  }, 30_000);
});
