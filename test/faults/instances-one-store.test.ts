/**
 * Two proxy instances on one real PostgreSQL (and one real Redis), before one real sandbox over loopback
 * (support/two-instances.ts): callbacks to both at once in copies, a sweep on one while the callback reaches the
 * other, a hook failing on one instance only, a create holding an order on the other, clocks 8 s apart.
 */
import { describe, expect, it } from 'vitest';
import { createPostgresStore } from '../../src/postgres/index.js';
import { createRedisStore } from '../../src/redis/index.js';
import { eventually } from '../proxy/sandbox-harness.js';
import { type OpenStore, twoInstances, useSharedStoreServers } from './support/two-instances.js';

const servers = useSharedStoreServers();
const postgresServer = servers.postgres;

const sharedStores: { store: string; open: OpenStore }[] = [
  { store: 'PostgreSQL', open: (name) => createPostgresStore({ url: postgresServer.url, schema: name, connectTimeoutSeconds: 2 }) },
  { store: 'Redis', open: (name) => createRedisStore({ url: servers.redis().url, keyPrefix: `${name}:` }) },
];

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
    // B's clock runs 2 s ahead, so that the retry A schedules (due within a second of its failure) is already due
    // for B's sweep: with clocks in step, A's own retry timer and B's sweep race at each due moment, and A's
    // failing again pushes the next one out (1, 2, 4 s...), past this test's wait when A wins a few in a row.
    const { sandbox, a, b, paidHeard, create } = await twoInstances(open, { callbacksTo: ['A'], bClockAheadMs: 2_000 });
    const { body } = await create(a, 'H-1');
    a.hookFails = true;
    sandbox.act(body.payment.id, 'pay');
    await eventually(() => a.logs.some((l) => l.message.startsWith('onPaymentUpdate failed')), 10_000, "A's hook to fail");
    expect(paidHeard(body.payment.id)).toEqual([]);
    // B's sweep delivers it, as the retry is due for B.
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
    // The line is written once the success is recorded, a moment after the hook returned.
    const atLast = () =>
      [...a.logs, ...b.logs].filter((l) => l.message === 'onPaymentUpdate heard the state at last' && l.fields?.paymentId === paymentId);
    await eventually(() => atLast().length > 0, 5_000, 'the hook to be said heard at last');
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(atLast().map((l) => l.fields?.failedAttempts)).toEqual([1]);
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
