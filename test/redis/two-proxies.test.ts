/**
 * Two real proxy instances, each on its own loopback socket and with its own Redis connections, sharing one
 * Redis store and one real sandbox: the way a shop runs several processes behind a load balancer. Both send the
 * sandbox instance A's callback URL, so a callback always lands on A, wherever the payment was created.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createPayinProxy, type PayinProxy } from '../../src/proxy/index.js';
import { silentLogger } from '../../src/proxy/logger.js';
import { createRedisStore, type RedisStore } from '../../src/redis/index.js';
import { createSandbox, type Sandbox } from '../../src/sandbox/index.js';
import { serve, type RunningServer } from '../../src/server/serve.js';
import type { PaymentView } from '../../src/shared/payment-view.js';
import { createAt } from '../support/proxy-calls.js';
import { eventually, pricedByMethod, seeded } from '../proxy/sandbox-harness.js';
import { SseReader } from '../proxy/sse-reader.js';
import { startRedisServer, type RedisServer } from './redis-server-harness.js';

interface Instance {
  url: string;
  store: RedisStore;
  /** Requests this instance sent to the service, by path. */
  upstream: string[];
}

let redis: RedisServer;
let cleanup: (() => Promise<void> | void)[] = [];

beforeAll(async () => {
  redis = await startRedisServer();
});
afterEach(async () => {
  for (const step of cleanup.reverse()) await step();
  cleanup = [];
});
afterAll(async () => {
  await redis?.stop();
});

async function startTwoProxies() {
  const sandbox: Sandbox = createSandbox({ requisitesDelayMs: 0, callbackRetryDelayMs: 20, random: seeded(11) });
  const sandboxServer = await serve(sandbox);
  cleanup.push(
    () => sandbox.close(),
    () => sandboxServer.close(),
  );
  const announced: { payment: PaymentView; by: string }[] = [];
  const keyPrefix = `two-proxies-${Math.random().toString(36).slice(2)}:`;
  const instances: Instance[] = [];
  const servers: RunningServer[] = [];
  for (const name of ['A', 'B']) {
    let proxy!: PayinProxy;
    const server = await serve((request) => proxy(request));
    servers.push(server);
    const store = createRedisStore({ url: redis.url, keyPrefix });
    const upstream: string[] = [];
    cleanup.push(
      () => server.close(),
      () => store.close(),
    );
    proxy = createPayinProxy({
      provider: { baseUrl: sandboxServer.url, merchantId: 'demo-merchant', token: 'demo-token', secret: 'demo-secret' },
      callbackUrl: `${servers[0]!.url}/payin/callback`,
      resolveOrder: pricedByMethod(),
      onPaymentUpdate: (payment) => {
        announced.push({ payment, by: name });
      },
      fetch: (input, init) => {
        upstream.push(new URL(input instanceof Request ? input.url : String(input)).pathname);
        return fetch(input, init);
      },
      store,
      logger: silentLogger,
      env: {},
    });
    instances.push({ url: server.url, store, upstream });
  }
  const create = (instance: Instance, orderId: string, method = 'upi') => createAt(instance.url, orderId, method);
  return { sandbox, a: instances[0]!, b: instances[1]!, announced, create };
}

describe('two proxy instances sharing one Redis store, against the real sandbox', () => {
  it('make one upstream payment for concurrent creates of one order sent to both', async () => {
    const { sandbox, a, b, create } = await startTwoProxies();
    const answers = await Promise.all(Array.from({ length: 8 }, (_, i) => create(i % 2 ? a : b, 'A-1')));
    expect(sandbox.payments()).toHaveLength(1);
    expect([...a.upstream, ...b.upstream].filter((path) => path === '/api/v2/payments')).toHaveLength(1);
    expect(new Set(answers.map((answer) => answer.body.payment.id))).toEqual(new Set([sandbox.payments()[0]!.id]));
    expect(answers.map((answer) => answer.status).sort()).toEqual([200, 200, 200, 200, 200, 200, 200, 201]);
  });

  it('bring a callback that reaches instance A to an event stream open on instance B, and announce it once', async () => {
    const { sandbox, a, b, announced, create } = await startTwoProxies();
    const { body } = await create(b, 'A-2');
    const response = await fetch(`${b.url}/payin/events?paymentId=${body.payment.id}&token=${body.token}`);
    const events = new SseReader(response);
    cleanup.push(() => events.cancel().catch(() => {}));
    expect(JSON.parse((await events.nextEvent())!.data!).state).toBe('pending');
    const bAsked = b.upstream.length;

    sandbox.act(body.payment.id, 'pay');
    const paid = JSON.parse((await events.nextEvent(5_000))!.data!);
    expect(paid).toMatchObject({ id: body.payment.id, outcome: 'paid', final: true });
    // B learnt it from Redis, not from the service: only A heard the callback and confirmed it.
    expect(b.upstream.length).toBe(bAsked);
    expect(a.upstream).toContain('/api/v2/status');
    const finished = () => sandbox.payment(body.payment.id)!.deliveries.filter((d) => d.state === 'finished');
    // The sandbox notes a delivery once A has answered it, a moment after A has published.
    await eventually(() => finished().some((d) => d.httpStatus === 200), 5_000, 'A to answer the callback 200');
    await eventually(() => announced.some((u) => u.payment.outcome === 'paid'), 5_000, 'paid to be announced');
    expect(announced.filter((u) => u.payment.outcome === 'paid')).toHaveLength(1);
    expect(await events.next(5_000)).toBeUndefined();
    await eventually(() => b.store.subscriptionCount === 0, 2_000, 'the stream to let go of its subscription');
  });

  it("tell a stream open on instance B that the order is paid when another payment's callback reaches A", async () => {
    const { sandbox, a, b, announced, create } = await startTwoProxies();
    const sbp = await create(a, 'A-3', 'sbp');
    const upi = await create(b, 'A-3', 'upi');
    const events = new SseReader(await fetch(`${b.url}/payin/events?paymentId=${upi.body.payment.id}&token=${upi.body.token}`));
    cleanup.push(() => events.cancel().catch(() => {}));
    expect((await events.nextEvent())?.event).toBe('payment');

    sandbox.act(sbp.body.payment.id, 'pay');
    expect((await events.nextEvent(5_000))?.event).toBe('order-paid');
    expect(await events.next(5_000)).toBeUndefined();
    await eventually(() => announced.some((u) => u.payment.outcome === 'paid'), 5_000, 'paid to be announced');
    expect(announced.filter((u) => u.payment.outcome === 'paid').map((u) => u.payment.id)).toEqual([sbp.body.payment.id]);
  });
});
