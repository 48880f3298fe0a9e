/**
 * Faults mid-payment, through the real sandbox over loopback: the proxy restarted on its SQLite file, Redis
 * restarted under the proxy (append-only file), and the payment service down for 30 s. In each, every payment
 * ends in the right outcome and the shop hears it exactly once.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createPayinProxy, type PayinProxy, type PayinProxyOptions, type ProxyStore } from '../../src/proxy/index.js';
import { silentLogger } from '../../src/proxy/logger.js';
import { createRedisStore } from '../../src/redis/index.js';
import { createSandbox, DEMO_MERCHANT, type Sandbox } from '../../src/sandbox/index.js';
import { ManualClock } from '../../src/shared/manual-clock.js';
import { serve, type RunningServer } from '../../src/server/serve.js';
import { signBody } from '../../src/shared/hmac.js';
import type { PaymentView } from '../../src/shared/payment-view.js';
import { createSqliteStore } from '../../src/sqlite/index.js';
import { drive } from '../proxy/harness.js';
import { eventually, seeded } from '../proxy/sandbox-harness.js';
import { startRedisServer } from '../redis/redis-server-harness.js';

const dir = mkdtempSync(join(tmpdir(), 'payin-faults-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

interface Shop {
  proxy: PayinProxy;
  server: RunningServer;
  paid: PaymentView[];
  create(orderId: string): Promise<{ status: number; body: any }>;
  status(paymentId: string, token: string): Promise<{ status: number; body: any }>;
  stop(): Promise<void>;
}

/** A shop's server: the proxy on `store`, on `port` (0: a free one), its hook recording paid payments. */
async function startShop(sandboxUrl: string, store: ProxyStore, port: number, options: Partial<PayinProxyOptions> = {}): Promise<Shop> {
  let proxy!: PayinProxy;
  const server = await serve((request) => proxy(request), { port });
  const paid: PaymentView[] = [];
  proxy = createPayinProxy({
    provider: { baseUrl: sandboxUrl, merchantId: DEMO_MERCHANT.id, token: DEMO_MERCHANT.token, secret: DEMO_MERCHANT.secret },
    callbackUrl: `http://127.0.0.1:${new URL(server.url).port}/payin/callback`,
    resolveOrder: () => ({ amount: '499.00', currency: 'INR' }),
    onPaymentUpdate: (payment) => {
      if (payment.outcome === 'paid') paid.push(payment);
    },
    logger: silentLogger,
    reconcileEveryMs: 0,
    env: {},
    store,
    ...options,
  });
  // A new connection per request: a restarted server on the same port must not be reached through a pooled
  // socket of the old one.
  const post = (path: string, body: unknown) =>
    new Promise<{ status: number; body: any }>((resolve, reject) => {
      const req = httpRequest(
        `${server.url}/payin${path}`,
        { method: 'POST', agent: false, headers: { 'content-type': 'application/json' } },
        (res) => {
          let text = '';
          res.on('data', (chunk) => (text += chunk));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, body: JSON.parse(text) }));
        },
      );
      req.on('error', reject);
      req.end(JSON.stringify(body));
    });
  return {
    proxy,
    server,
    paid,
    create: (orderId) => post('/payments', { orderId, method: 'upi' }),
    status: (paymentId, token) => post('/status', { paymentId, token }),
    stop: async () => {
      await proxy.close();
      await server.close();
    },
  };
}

async function startService(): Promise<{ sandbox: Sandbox; server: RunningServer }> {
  const sandbox = createSandbox({ requisitesDelayMs: 0, callbackRetryDelayMs: 100, random: seeded(11) });
  return { sandbox, server: await serve(sandbox) };
}

describe('faults mid-payment', () => {
  it('loses nothing when the proxy restarts on its SQLite file, with a payment paid while it was down and an announcement its hook had not taken', async () => {
    const service = await startService();
    const path = join(dir, 'restart.db');
    let store = createSqliteStore({ path });
    const before = await startShop(service.server.url, store, 0, {
      onPaymentUpdate: () => {
        throw new Error('the shop database is down');
      },
    });
    const port = Number(new URL(before.server.url).port);
    const first = await before.create('R-1');
    const second = await before.create('R-2');
    service.sandbox.act(first.body.payment.id, 'pay');
    await eventually(async () => (await store.getPayment(first.body.payment.id))?.view.outcome === 'paid', 5_000, 'R-1 recorded paid');
    await before.stop();
    await store.close?.();

    // While the proxy is down: R-2 is paid, and its callbacks find nobody.
    service.sandbox.act(second.body.payment.id, 'pay');
    store = createSqliteStore({ path });
    const after = await startShop(service.server.url, store, port);
    // The open checkout goes on with the token it had.
    const status = await after.status(second.body.payment.id, second.body.token);
    expect([status.status, status.body.payment.outcome]).toEqual([200, 'paid']);
    await after.proxy.reconcile();
    await eventually(() => after.paid.length === 2, 10_000, 'both payments announced');
    await service.sandbox.idle();
    await after.proxy.reconcile();
    expect(after.paid.map((p) => p.orderId).sort()).toEqual(['R-1', 'R-2']);
    expect((await after.create('R-1')).status).toBe(409);
    expect(service.sandbox.payments()).toHaveLength(2);
    await after.stop();
    await store.close?.();
    service.sandbox.close();
    await service.server.close();
  }, 30_000);

  it('loses nothing when Redis restarts mid-flow (append-only file)', async () => {
    const service = await startService();
    const redisDir = mkdtempSync(join(dir, 'redis-'));
    let redis = await startRedisServer({ appendOnlyDir: redisDir });
    const store = createRedisStore({ url: redis.url, keyPrefix: 'restart:', onError: () => {} });
    const shop = await startShop(service.server.url, store, 0);
    const { body } = await shop.create('X-1');
    await redis.stop();
    redis = await startRedisServer({ appendOnlyDir: redisDir, port: redis.port });
    service.sandbox.act(body.payment.id, 'pay');
    await eventually(() => shop.paid.length === 1, 10_000, 'paid to be announced after the restart');
    await service.sandbox.idle();
    await shop.proxy.reconcile();
    expect(shop.paid).toHaveLength(1);
    expect((await shop.create('X-1')).status).toBe(409);
    await shop.stop();
    await store.close();
    await redis.stop();
    service.sandbox.close();
    await service.server.close();
  }, 30_000);

  it('ends the payment right, announced once, when the service is down for 30 s while it is paid', async () => {
    const clock = new ManualClock();
    let down = false;
    const sandbox = createSandbox({ requisitesDelayMs: 0, callbackRetryDelayMs: 10, callbackAttempts: 3, random: seeded(5) });
    const paid: PaymentView[] = [];
    const proxy = createPayinProxy({
      provider: { baseUrl: 'http://sandbox.test', merchantId: DEMO_MERCHANT.id, token: DEMO_MERCHANT.token, secret: DEMO_MERCHANT.secret },
      callbackUrl: 'http://shop.test/payin/callback',
      resolveOrder: () => ({ amount: '499.00', currency: 'INR' }),
      onPaymentUpdate: (payment) => {
        if (payment.outcome === 'paid') paid.push(payment);
      },
      // The service's outage: every call of the proxy fails while it lasts.
      fetch: async (input, init) => (down ? new Response('unavailable', { status: 503 }) : sandbox(new Request(input, init))),
      clock,
      logger: silentLogger,
      reconcileEveryMs: 10_000,
      timeouts: { statusDeadlineMs: 1_000 },
      env: {},
    });
    const created = await proxy(
      new Request('http://shop.test/payin/payments', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '{"orderId":"D-1","method":"upi"}',
      }),
    );
    const { payment } = (await created.json()) as { payment: PaymentView };
    down = true;
    sandbox.act(payment.id, 'pay');
    // Its callback reaches the proxy, which cannot confirm "paid" while the service is down: 502.
    const notice = JSON.stringify(sandbox.payment(payment.id));
    const callback = await drive(
      clock,
      proxy(
        new Request('http://shop.test/payin/callback', {
          method: 'POST',
          headers: { 'content-type': 'application/json', signature: await signBody(DEMO_MERCHANT.secret, notice) },
          body: notice,
        }),
      ),
    );
    expect(callback.status).toBe(502);
    for (let s = 0; s < 30; s += 5) await clock.advance(5_000);
    expect(paid).toHaveLength(0);
    down = false;
    await clock.advance(10_000);
    await eventually(() => paid.length === 1, 5_000, 'the sweep after the outage to announce paid');
    await clock.advance(60_000);
    expect(paid).toHaveLength(1);
    await proxy.close();
    sandbox.close();
  }, 30_000);
});
