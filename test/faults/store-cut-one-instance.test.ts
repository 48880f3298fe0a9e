/**
 * Two proxy instances on one real PostgreSQL (and one real Redis), and the network between one of them (A) and the
 * store cut while the store, and B, go on (support/two-instances.ts, ../support/cuttable-relay.ts): a create on A,
 * the service's callback reaching A only, and B sweeping meanwhile; cut with resets (something in front of the store
 * closing A's connections) and silently (packets dropped). What must hold: no payment lost, none made twice
 * for an order, no "paid" that the service did not say, and the shop's hook told each new state once.
 */
import { describe, expect, it } from 'vitest';
import { createPostgresStore } from '../../src/postgres/index.js';
import { createRedisStore } from '../../src/redis/index.js';
import { eventually } from '../proxy/sandbox-harness.js';
import { type CuttableRelay, cuttableRelay } from '../support/cuttable-relay.js';
import { tlsFront } from '../support/tls-front.js';
import { atEnd, type OpenStore, twoInstances, useSharedStoreServers } from './support/two-instances.js';

const servers = useSharedStoreServers();
const postgresServer = servers.postgres;

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** The answer of `request`, or a failure naming `what` when none comes within `ms`. */
async function within<T>(ms: number, what: string, request: Promise<T>): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer to ${what} within ${ms} ms`)), ms);
  });
  try {
    return await Promise.race([request, late]);
  } finally {
    clearTimeout(timer);
  }
}

type CutOffA = () => Promise<{ open: OpenStore; relay: CuttableRelay }>;

/**
 * A's PostgreSQL goes through a relay the test cuts (answerTimeoutSeconds 3); B reaches it directly. Over TLS
 * (`sslmode=require`, as a hosted database is reached), the relay carries A's TLS to a front before the database
 * (../support/tls-front.ts), so that a cut drops the TLS connection's packets.
 */
const cutOffAFromPostgres =
  (over: { tls?: boolean } = {}): CutOffA =>
  async () => {
    const front = over.tls ? await tlsFront(() => postgresServer.port) : undefined;
    if (front) atEnd(() => front.close());
    const relay = await cuttableRelay(front?.port ?? postgresServer.port);
    atEnd(() => relay.close());
    const viaRelay = front
      ? `postgres://postgres@localhost:${relay.port}/postgres?sslmode=require`
      : postgresServer.url.replace(`:${postgresServer.port}/`, `:${relay.port}/`);
    const open: OpenStore = (name, id) =>
      createPostgresStore({
        url: id === 'A' ? viaRelay : postgresServer.url,
        schema: name,
        connectTimeoutSeconds: 2,
        lockTimeoutSeconds: 1,
        answerTimeoutSeconds: 3,
      });
    return { open, relay };
  };

/** The store for A goes through a relay the test cuts; B reaches the store directly. */
const sharedStores: { store: string; cutOffA: CutOffA }[] = [
  { store: 'PostgreSQL', cutOffA: cutOffAFromPostgres() },
  {
    store: 'Redis',
    cutOffA: async () => {
      const relay = await cuttableRelay(servers.redis().port);
      atEnd(() => relay.close());
      const open: OpenStore = (name, id) =>
        createRedisStore({
          url: id === 'A' ? `redis://127.0.0.1:${relay.port}` : servers.redis().url,
          keyPrefix: `${name}:`,
          onError: () => {},
          redisOptions: { retryStrategy: () => 50 },
        });
      return { open, relay };
    },
  },
];

describe.each(sharedStores)('two instances on one $store, A cut off from it', ({ cutOffA }) => {
  it('refuses a create on A with a retryable 503 and makes no payment; the retry through B makes the one payment', async () => {
    const { open, relay } = await cutOffA();
    const { sandbox, a, b, create, status } = await twoInstances(open);
    relay.cut();
    // A balancer or a published port in front of the store takes A's connections and closes them unanswered.
    const refused = await within(5_000, "A's create", create(a, 'CUT-1'));
    expect(refused.status).toBe(503);
    expect(sandbox.payments()).toHaveLength(0);
    // And A knocks at the pool's backoff meanwhile, not thousands of times a second.
    expect(relay.refused).toBeLessThan(50);
    const made = await create(b, 'CUT-1');
    expect(made.status).toBe(201);
    relay.mend();
    // Once A reaches the store again it answers with the payment B made.
    await eventually(async () => (await create(a, 'CUT-1')).status === 200, 10_000, 'A to answer the order again');
    expect((await create(a, 'CUT-1')).body.payment.id).toBe(made.body.payment.id);
    expect(sandbox.payments()).toHaveLength(1);
    expect((await status(a, made.body.payment.id, made.body.token)).body.payment.outcome).not.toBe('paid');
  });

  it('answers a create on A with a 503 within seconds when the packets between A and the store are dropped', async () => {
    const { open, relay } = await cutOffA();
    const { sandbox, a, b, create } = await twoInstances(open);
    expect((await create(a, 'WARM-1')).status).toBe(201); // A's connections are open
    // A firewall or a failover drops them on the way: no answer, and no end of the connection either.
    relay.cut({ silent: true });
    const refused = await within(6_000, "A's create", create(a, 'SILENT-1'));
    expect(refused.status).toBe(503);
    expect(sandbox.payments().filter((payment) => payment.orderId === 'SILENT-1')).toHaveLength(0);
    expect((await create(b, 'SILENT-1')).status).toBe(201);
  });

  it('makes no second payment when A is cut off after the service made its payment: the retry through B finds it', async () => {
    const { open, relay } = await cutOffA();
    // A's hold on the order, which A cannot let go of, lapses in 2 s rather than a minute (it is renewed every third
    // of that while A can reach the store, so it lapses only once A is cut off).
    const { sandbox, a, b, create, paidHeard } = await twoInstances(open, { timeouts: { claimLeaseMs: 2_000 } });
    a.afterCreateAnswer = () => relay.cut();
    const lost = await within(5_000, "A's create", create(a, 'CUT-2'));
    expect(lost.status).toBeGreaterThanOrEqual(500);
    expect(sandbox.payments()).toHaveLength(1);
    // The shopper retries; the balancer sends it to B. B may wait for A's hold on the order to lapse.
    let retried = await create(b, 'CUT-2');
    for (let i = 0; i < 30 && retried.status >= 400; i++) {
      await sleep(500);
      retried = await create(b, 'CUT-2');
    }
    expect(retried.status).toBeLessThan(300);
    expect(sandbox.payments()).toHaveLength(1);
    const paymentId = sandbox.payments()[0]!.id;
    expect(retried.body.payment.id).toBe(paymentId);
    sandbox.act(paymentId, 'pay');
    await eventually(() => paidHeard(paymentId).length > 0, 15_000, 'paid to be heard');
    relay.mend();
    await eventually(async () => (await create(a, 'CUT-2')).status === 409, 10_000, 'A to refuse the paid order');
    await Promise.all([a.proxy.reconcile(), b.proxy.reconcile()]);
    await sleep(500);
    expect(sandbox.payments()).toHaveLength(1);
    expect(paidHeard(paymentId)).toHaveLength(1);
  }, 40_000);

  it("answers the service's callback to the cut-off A with a 5xx; B's sweep tells the shop once, and A mended adds nothing", async () => {
    const { open, relay } = await cutOffA();
    const { sandbox, a, b, create, status, heard, paidHeard, relayAnswers } = await twoInstances(open, { callbacksTo: ['A'] });
    const { body } = await create(b, 'CUT-3');
    await sleep(300); // the service's callback of the new payment, taken by A
    relay.cut();
    const before = relayAnswers.length;
    sandbox.act(body.payment.id, 'pay');
    await eventually(() => relayAnswers.length >= before + 2, 10_000, 'the callback to be refused and sent again');
    expect(relayAnswers.slice(before).every((answer) => answer >= 500)).toBe(true);
    expect(paidHeard(body.payment.id)).toEqual([]);
    await b.proxy.reconcile();
    await eventually(() => paidHeard(body.payment.id).length > 0, 10_000, "B's sweep to tell the shop");
    relay.mend();
    // A reaches the store again: its sweep and the service's deliveries that are left record nothing new.
    await sleep(1_000);
    await Promise.all([a.proxy.reconcile(), b.proxy.reconcile()]);
    await sleep(500);
    expect(heard.filter((h) => h.payment.outcome === 'paid').map((h) => h.by)).toEqual(['B']);
    expect((await status(a, body.payment.id, body.token)).body.payment.outcome).toBe('paid');
  });

  it("lets B's sweep tell the shop once what A's failed hook left, while A cannot reach the store to retry it", async () => {
    const { open, relay } = await cutOffA();
    const { sandbox, a, b, create, tried, paidHeard } = await twoInstances(open, { callbacksTo: ['A'] });
    const { body } = await create(a, 'CUT-4');
    a.hookFails = true;
    sandbox.act(body.payment.id, 'pay');
    await eventually(() => tried.includes(`${body.payment.id} paid`), 10_000, "A's hook to be tried with paid");
    relay.cut();
    a.hookFails = false;
    await sleep(1_500); // A's own retry, due in about a second, fails against the store
    await eventually(
      async () => {
        await b.proxy.reconcile();
        return paidHeard(body.payment.id).length > 0;
      },
      15_000,
      'B to tell the shop',
    );
    relay.mend();
    await sleep(2_500); // A's retries, with the store back
    await Promise.all([a.proxy.reconcile(), b.proxy.reconcile()]);
    expect(paidHeard(body.payment.id).map((h) => h.by)).toEqual(['B']);
  });
});

describe.each([
  { over: 'plain TCP', tls: false },
  { over: 'TLS', tls: true },
])('two instances on one PostgreSQL, A cut off silently over $over and then mended', ({ tls }) => {
  it('serves creates on A again within seconds of the mend, on fresh connections in place of those the cut stalled', async () => {
    const { open, relay } = await cutOffAFromPostgres({ tls })();
    const { a, create, status } = await twoInstances(open);
    const made = await create(a, 'MEND-1');
    expect(made.status).toBe(201);
    // A busy shop's pool: all its connections open (the default max, 10).
    await Promise.all(Array.from({ length: 12 }, () => a.store.getOrder('MEND-1')));
    expect(relay.open).toBe(10);
    // Idle for longer than answerTimeoutSeconds, the connections are kept (and still watched afterwards).
    const closedBefore = relay.closed; // the schema migration's connection, ended
    await sleep(4_000);
    expect(relay.closed).toBe(closedBefore);
    // Dropped packets (a firewall, a NAT entry gone): the requests meanwhile take every connection, and each gets
    // its 503 after answerTimeoutSeconds. The connections they were written on stay stalled after the mend.
    relay.cut({ silent: true });
    const cut = await within(
      8_000,
      "A's creates during the cut",
      Promise.all(Array.from({ length: 12 }, (_, i) => create(a, `MEND-CUT-${i}`))),
    );
    expect(cut.map((answer) => answer.status)).toEqual(Array(12).fill(503));
    relay.mend();
    const mendedAt = Date.now();
    const refused: number[] = [];
    let answer = await create(a, 'MEND-2');
    while (answer.status !== 201 && Date.now() - mendedAt < 15_000) {
      refused.push(answer.status);
      await sleep(250);
      answer = await create(a, 'MEND-2');
    }
    const servedAfterMs = Date.now() - mendedAt;
    // Before, none was served: every operation went to a stalled connection and waited out answerTimeoutSeconds.
    const figure = `${refused.length} refused (${refused.join(', ')}) in ${servedAfterMs} ms after the mend`;
    expect(answer.status, figure).toBe(201);
    expect(refused.length, figure).toBeLessThanOrEqual(2);
    expect(servedAfterMs, figure).toBeLessThan(6_000);
    expect((await status(a, made.body.payment.id, made.body.token)).status).toBe(200);
    // The stalled connections were closed, not left beside the new ones.
    await eventually(() => relay.closed >= closedBefore + 10, 5_000, 'the stalled connections to close');
    expect(relay.open).toBeLessThanOrEqual(10);
  }, 45_000);
});
