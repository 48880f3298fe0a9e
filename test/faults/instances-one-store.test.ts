/**
 * Two proxy instances behind a load balancer, each its own HTTP server and store connections, on one real PostgreSQL
 * (and one real Redis), before one real sandbox over loopback. The service's callbacks reach a relay that hands every
 * one to both instances at once, in copies, as a balancer that retries, or a service that redelivers, can. Each
 * instance has its own hook (the shop's code running beside it), which can be made to fail on one of them only.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createPostgresStore } from '../../src/postgres/index.js';
import { createPayinProxy, type PayinProxy } from '../../src/proxy/index.js';
import type { ProxyStore } from '../../src/proxy/infrastructure/store.js';
import type { ProxyLogger } from '../../src/proxy/logger.js';
import { createRedisStore } from '../../src/redis/index.js';
import { createSandbox, DEMO_MERCHANT } from '../../src/sandbox/index.js';
import { serve } from '../../src/server/serve.js';
import { systemClock } from '../../src/shared/clock.js';
import type { PaymentView } from '../../src/shared/payment-view.js';
import { usePostgresServer } from '../postgres/postgres-server-harness.js';
import { eventually, pricedByMethod, seeded } from '../proxy/sandbox-harness.js';
import { startRedisServer, type RedisServer } from '../redis/redis-server-harness.js';

const postgresServer = usePostgresServer();
let redisServer: RedisServer | undefined;
beforeAll(async () => {
  redisServer = await startRedisServer();
});
afterAll(async () => {
  await redisServer?.stop();
});
let cleanup: (() => unknown)[] = [];
afterEach(async () => {
  for (const step of cleanup.reverse()) await Promise.resolve(step()).catch(() => {});
  cleanup = [];
});

type SharedStore = ProxyStore & { close(): Promise<void>; countPayments(now: number): Promise<Record<string, number>> };
const sharedStores: { store: string; open: (name: string) => SharedStore }[] = [
  { store: 'PostgreSQL', open: (name) => createPostgresStore({ url: postgresServer.url, schema: name, connectTimeoutSeconds: 2 }) },
  { store: 'Redis', open: (name) => createRedisStore({ url: redisServer!.url, keyPrefix: `${name}:` }) },
];

interface Instance {
  name: string;
  url: string;
  proxy: PayinProxy;
  store: SharedStore;
  /** The hook of this instance throws while set (the shop's database is unreachable from this host). */
  hookFails: boolean;
  /** Holds this instance's creates at the service this long (a slow answer to this host). */
  createDelayMs: number;
  logs: { level: string; message: string; fields?: Record<string, unknown> }[];
}

/**
 * Two instances on one store named afresh; callbacks go to a relay that copies each to both (or to A only, where the
 * balancer sends them), `copies` times. B's clock may run ahead of A's (hosts whose clocks are not in step).
 */
async function twoInstances(open: (name: string) => SharedStore, { copies = 1, callbacksTo = ['A', 'B'], bClockAheadMs = 0 } = {}) {
  const sandbox = createSandbox({ requisitesDelayMs: 0, callbackRetryDelayMs: 50, random: seeded(5) });
  const sandboxServer = await serve(sandbox);
  cleanup.push(
    () => sandbox.close(),
    () => sandboxServer.close(),
  );
  const heard: { payment: PaymentView; by: string; secondPaymentOf?: string }[] = [];
  /** Every call of either hook, failed or not: `<payment id> <outcome>`. */
  const tried: string[] = [];
  const name = `inst_${Math.random().toString(36).slice(2)}`;
  const instances: Instance[] = [];
  const relayAnswers: number[] = [];
  const relay = await serve(async (request) => {
    const body = await request.arrayBuffer();
    const headers = { 'content-type': 'application/json', signature: request.headers.get('signature') ?? '' };
    const sent = instances
      .filter((instance) => callbacksTo.includes(instance.name))
      .flatMap((instance) =>
        Array.from({ length: copies }, () => fetch(`${instance.url}/payin/callback`, { method: 'POST', headers, body })),
      );
    const answers = await Promise.all(sent);
    relayAnswers.push(...answers.map((answer) => answer.status));
    // The service is told 200 only when one instance recorded it; a 5xx anywhere makes it deliver again.
    return new Response(null, { status: answers.every((answer) => answer.ok) ? 200 : 502 });
  });
  cleanup.push(() => relay.close());
  for (const id of ['A', 'B']) {
    const store = open(name);
    let proxy!: PayinProxy;
    const server = await serve((request) => proxy(request));
    const logs: Instance['logs'] = [];
    const log = (level: string) => (message: string, fields?: Record<string, unknown>) => void logs.push({ level, message, fields });
    const logger: ProxyLogger = { info: log('info'), warn: log('warn'), error: log('error') };
    const instance: Instance = { name: id, url: server.url, proxy: undefined as never, store, hookFails: false, createDelayMs: 0, logs };
    proxy = createPayinProxy({
      provider: { baseUrl: sandboxServer.url, merchantId: DEMO_MERCHANT.id, token: DEMO_MERCHANT.token, secret: DEMO_MERCHANT.secret },
      callbackUrl: `${relay.url}/callback`,
      resolveOrder: pricedByMethod(),
      onPaymentUpdate: (payment, info) => {
        tried.push(`${payment.id} ${payment.outcome}`);
        if (instance.hookFails) throw new Error(`the shop database is unreachable from ${id}`);
        heard.push({ payment, by: id, ...(info.secondPaymentOf ? { secondPaymentOf: info.secondPaymentOf } : {}) });
      },
      fetch: async (input, init) => {
        const path = new URL(input instanceof Request ? input.url : String(input)).pathname;
        if (path === '/api/v2/payments' && instance.createDelayMs > 0) {
          await new Promise((resolve) => setTimeout(resolve, instance.createDelayMs));
        }
        return fetch(input, init);
      },
      reconcileEveryMs: 0,
      ...(id === 'B' ? { clock: { ...systemClock, now: () => Date.now() + bClockAheadMs } } : {}),
      store,
      logger,
      env: {},
    });
    instance.proxy = proxy;
    cleanup.push(
      () => server.close(),
      () => proxy.close(),
      () => store.close(),
    );
    instances.push(instance);
  }
  const create = async (instance: Instance, orderId: string, method = 'upi') => {
    const response = await fetch(`${instance.url}/payin/payments`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ orderId, method }),
    });
    return { status: response.status, body: (await response.json()) as { payment: PaymentView; token: string } };
  };
  const status = async (instance: Instance, paymentId: string, token: string) => {
    const response = await fetch(`${instance.url}/payin/status`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ paymentId, token }),
    });
    return { status: response.status, body: (await response.json()) as { payment: PaymentView } };
  };
  const paidHeard = (id: string) => heard.filter((h) => h.payment.id === id && h.payment.outcome === 'paid');
  return { sandbox, a: instances[0]!, b: instances[1]!, heard, tried, paidHeard, relayAnswers, create, status };
}

describe.each(sharedStores)('two instances on one $store', ({ open }) => {
  it('announce "paid" once when each callback reaches both instances at once, three copies to each', async () => {
    const { sandbox, a, b, paidHeard, relayAnswers, create } = await twoInstances(open, { copies: 3 });
    const payments = await Promise.all(['C-1', 'C-2', 'C-3', 'C-4'].map((order, i) => create(i % 2 ? a : b, order)));
    for (const { body } of payments) sandbox.act(body.payment.id, 'pay');
    for (const { body } of payments) {
      await eventually(() => paidHeard(body.payment.id).length > 0, 10_000, `${body.payment.id} to be heard paid`);
    }
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(payments.map(({ body }) => paidHeard(body.payment.id).length)).toEqual([1, 1, 1, 1]);
    expect(relayAnswers.filter((status) => status !== 200)).toEqual([]);
  });

  it('announce "paid" once when the callback reaches A while B sweeps and a browser asks B', async () => {
    const { sandbox, a, b, paidHeard, create, status } = await twoInstances(open);
    const { body } = await create(a, 'S-1');
    sandbox.act(body.payment.id, 'pay');
    await Promise.all([
      b.proxy.reconcile(),
      status(b, body.payment.id, body.token),
      status(a, body.payment.id, body.token),
      a.proxy.reconcile(),
    ]);
    await eventually(() => paidHeard(body.payment.id).length > 0, 10_000, 'paid to be heard');
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(paidHeard(body.payment.id)).toHaveLength(1);
  });

  it("announce once through B's sweep when A's hook fails, and leave nothing listed as failing", async () => {
    const { sandbox, a, b, paidHeard, create } = await twoInstances(open, { callbacksTo: ['A'] });
    const { body } = await create(a, 'H-1');
    a.hookFails = true;
    sandbox.act(body.payment.id, 'pay');
    await eventually(() => a.logs.some((l) => l.message.startsWith('onPaymentUpdate failed')), 10_000, "A's hook to fail");
    expect(paidHeard(body.payment.id)).toEqual([]);
    // B's sweep delivers it once it is due again (A's first retry is due within a second).
    await eventually(
      async () => {
        await b.proxy.reconcile();
        return paidHeard(body.payment.id).length > 0;
      },
      10_000,
      'B to deliver it',
    );
    expect(paidHeard(body.payment.id).map((h) => h.by)).toEqual(['B']);
    a.hookFails = false;
    await a.proxy.reconcile();
    expect(paidHeard(body.payment.id)).toHaveLength(1);
    expect((await a.store.countPayments(Date.now())).failing).toBe(0);
  });

  it('leave no retry of a pending state the hook failed on at A once B has told paid, nor list it as failing', async () => {
    const callbacksTo: string[] = []; // none at first: only A's create records pending, and A's hook fails on it
    const { sandbox, a, b, paidHeard, create } = await twoInstances(open, { callbacksTo });
    a.hookFails = true;
    const { body } = await create(a, 'LEFT-1');
    const id = body.payment.id;
    await eventually(() => a.logs.some((l) => l.message.startsWith('onPaymentUpdate failed')), 10_000, "A's hook to fail on pending");
    await a.proxy.close(); // A's retry timer goes with it, as in a restart: nothing but a sweep would retry pending
    callbacksTo.push('B');
    sandbox.act(id, 'pay');
    await eventually(() => paidHeard(id).length > 0, 10_000, 'B to tell paid');
    const left = async () => (await b.store.dueAnnouncements(Number.MAX_SAFE_INTEGER, 10)).filter((e) => e.paymentId === id);
    await eventually(async () => (await left()).length === 0, 3_000, 'the pending state to leave the outbox').catch(() => {});
    expect({ left: await left(), failing: (await b.store.countPayments(Date.now())).failing }).toEqual({ left: [], failing: 0 });
  });

  it('count no failure of the hook while a create on A holds the order that a paid payment settles', async () => {
    const { sandbox, a, b, paidHeard, tried, create } = await twoInstances(open);
    const upi = await create(b, 'BUSY-1', 'upi');
    a.createDelayMs = 3_000;
    const switching = create(a, 'BUSY-1', 'sbp'); // the shopper switches to SBP on another tab, through A
    await new Promise((resolve) => setTimeout(resolve, 300));
    a.hookFails = b.hookFails = true; // and the shop's database is down when the paid is told
    sandbox.act(upi.body.payment.id, 'pay'); // ... and pays the UPI QR meanwhile
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    // The hook has not been called yet: the order is busy, nothing failed.
    const failingMeanwhile = (await a.store.countPayments(Date.now())).failing;
    await switching;
    const paymentId = upi.body.payment.id;
    await eventually(() => tried.includes(`${paymentId} paid`), 10_000, 'the hook to be called with paid');
    await new Promise((resolve) => setTimeout(resolve, 100));
    const entry = (await a.store.dueAnnouncements(Number.MAX_SAFE_INTEGER, 10)).find((e) => e.paymentId === paymentId);
    // One failure, retried in about a second: not the backoff of a hook that failed a dozen times.
    const failed = { attempts: entry?.attempts, retryInMs: Math.round(((entry?.dueAt ?? Infinity) - Date.now()) / 1_000) * 1_000 };
    expect({ failingMeanwhile, failed }).toEqual({
      failingMeanwhile: 0,
      failed: { attempts: 1, retryInMs: expect.toSatisfy((ms: number) => ms <= 1_000) },
    });
    a.hookFails = b.hookFails = false;
    await eventually(
      async () => {
        await a.proxy.reconcile();
        return paidHeard(paymentId).length > 0;
      },
      10_000,
      'paid to be heard',
    );
    const atLast = [...a.logs, ...b.logs].filter(
      (l) => l.message === 'onPaymentUpdate heard the state at last' && l.fields?.paymentId === paymentId,
    );
    expect(atLast.map((l) => l.fields?.failedAttempts)).toEqual([1]);
  });

  it("keep one payment per order and one announcement when B's clock is 8 s ahead of A's", async () => {
    const { sandbox, a, b, paidHeard, create } = await twoInstances(open, { bClockAheadMs: 8_000 });
    const answers = await Promise.all(Array.from({ length: 6 }, (_, i) => create(i % 2 ? a : b, 'SKEW-1')));
    expect(sandbox.payments()).toHaveLength(1);
    expect(new Set(answers.map((answer) => answer.status))).toEqual(new Set([200, 201]));
    const { id } = answers[0]!.body.payment;
    a.hookFails = true;
    sandbox.act(id, 'pay');
    await eventually(
      async () => {
        await Promise.all([a.proxy.reconcile(), b.proxy.reconcile()]);
        return paidHeard(id).length > 0;
      },
      10_000,
      'paid to be heard',
    );
    a.hookFails = false;
    await Promise.all([a.proxy.reconcile(), b.proxy.reconcile()]);
    expect(paidHeard(id)).toHaveLength(1);
  });
});
