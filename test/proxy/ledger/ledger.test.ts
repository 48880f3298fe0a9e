/**
 * The ledger's promises in the conditions shops live in: callbacks that never come, a hook that fails for a
 * minute, a status answer that lags the callback, replays a day later, restarts, and orders paid twice. Each test
 * is a case that went wrong before the ledger existed.
 */
import { describe, expect, it } from 'vitest';
import { MemoryStore } from '../../../src/proxy/infrastructure/memory-store.js';
import { ManualClock } from '../../../src/shared/manual-clock.js';
import { createSqliteStore } from '../../../src/sqlite/index.js';
import { drive, setup, until } from '../harness.js';

const paidUpdates = (t: ReturnType<typeof setup>) => t.updates.filter((u) => u.payment.outcome === 'paid');

describe('the ledger follows payments nobody asks about', () => {
  it('announces paid although the callbacks never arrive and no browser is open, asking in one batched call', async () => {
    const t = setup({ reconcileEveryMs: 0 });
    const created = await Promise.all(['A-1', 'A-2', 'A-3'].map((id) => t.create(id)));
    const ids = created.map((c) => c.body.payment.id);
    for (const id of ids) t.service.set(id, { state: 'finished', status: true });
    const before = t.service.statuses.length;
    const result = await t.proxy.reconcile();
    expect(result).toEqual({ checked: 3, changed: 3, announced: 3 });
    const sweepCalls = t.service.statuses.slice(before);
    expect(sweepCalls).toHaveLength(1);
    expect((sweepCalls[0]!.body.paymentIds as string[]).sort()).toEqual([...ids].sort());
    expect(
      paidUpdates(t)
        .map((u) => [u.payment.id, u.source])
        .sort(),
    ).toEqual(ids.map((id) => [id, 'reconcile']).sort());
    // Final payments are no longer followed.
    expect(await t.proxy.reconcile()).toEqual({ checked: 0, changed: 0, announced: 0 });
  });

  it('asks about 120 open payments in three status calls of at most 50 each', async () => {
    const t = setup({ reconcileEveryMs: 0, limits: { createsPerMinute: 1_000 } });
    const ids: string[] = [];
    for (let i = 1; i <= 120; i++) ids.push((await t.create(`B-${i}`)).body.payment.id);
    const before = t.service.statuses.length;
    expect((await t.proxy.reconcile()).checked).toBe(120);
    const asked = t.service.statuses.slice(before).map((call) => call.body.paymentIds as string[]);
    expect(asked.map((batch) => batch.length)).toEqual([50, 50, 20]);
    expect(asked.flat().sort()).toEqual([...ids].sort());
  });

  it('sweeps by itself every reconcileEveryMs', async () => {
    const t = setup({ reconcileEveryMs: 30_000 });
    const { body } = await t.create('A-1');
    t.service.set(body.payment.id, { state: 'finished', status: true });
    await t.clock.advance(30_000);
    await until(() => paidUpdates(t).length === 1, 'the sweep to announce paid');
    await t.proxy.close();
  });

  it('stops following an open payment once it is past its expiry and the grace window, after one last question', async () => {
    const t = setup({ reconcileEveryMs: 0, timeouts: { lateGraceMs: 60_000 } });
    const { body } = await t.create('A-1');
    const expiresAt = Date.parse(body.payment.expiresAt);
    await t.clock.advance(expiresAt + 30_000 - t.clock.now());
    expect((await t.proxy.reconcile()).checked).toBe(1);
    await t.clock.advance(expiresAt + 61_000 - t.clock.now());
    expect((await t.proxy.reconcile()).checked).toBe(1);
    expect((await t.proxy.reconcile()).checked).toBe(0);
    expect(await t.store.followedPayments(10)).toEqual([]);
  });

  it('announces paid when the status answer lags the callback by 2 s', async () => {
    const t = setup({ reconcileEveryMs: 0 });
    const { body } = await t.create('A-1');
    const notice = { ...t.service.payments.get(body.payment.id)!, state: 'finished', status: true };
    // The service's status still says pending when its own "finished" callback arrives.
    expect((await t.callback(notice)).status).toBe(200);
    expect(paidUpdates(t)).toHaveLength(0);
    t.service.set(body.payment.id, { state: 'finished', status: true });
    await t.clock.advance(2_000);
    await until(() => paidUpdates(t).length === 1, 'the second look to announce paid');
  });
});

describe('the ledger tells the shop once, and until it hears', () => {
  it('keeps calling a hook that fails for a minute, never two calls at once, and stops after the first success', async () => {
    let down = true;
    let running = 0;
    let overlapped = false;
    const calls: string[] = [];
    const t = setup({
      reconcileEveryMs: 0,
      onPaymentUpdate: async (payment) => {
        running++;
        overlapped ||= running > 1;
        for (let i = 0; i < 5; i++) await Promise.resolve(); // a hook that takes a few turns of the event loop
        running--;
        calls.push(payment.state);
        if (down) throw new Error('database is down');
      },
    });
    const { body } = await t.create('A-1');
    t.service.set(body.payment.id, { state: 'finished', status: true });
    await t.callback(t.service.payments.get(body.payment.id)!);
    await t.callback(t.service.payments.get(body.payment.id)!);
    // A minute of failures, with callbacks, sweeps and retries all trying.
    for (let s = 0; s < 60; s += 5) {
      await t.clock.advance(5_000);
      await t.proxy.reconcile();
    }
    const duringOutage = calls.filter((s) => s === 'finished').length;
    expect(duringOutage).toBeGreaterThanOrEqual(4);
    down = false;
    await drive(
      t.clock,
      until(() => calls.filter((s) => s === 'finished').length === duringOutage + 1, 'the first success'),
      10_000,
    );
    await t.clock.advance(10 * 60_000);
    await t.proxy.reconcile();
    await t.callback(t.service.payments.get(body.payment.id)!);
    expect(calls.filter((s) => s === 'finished')).toHaveLength(duringOutage + 1);
    expect(overlapped).toBe(false);
  });

  it('calls a hook that keeps failing again after 1 s, then twice as long each time, never more than 5 minutes apart', async () => {
    const calledAt: number[] = [];
    const t = setup({
      reconcileEveryMs: 0,
      random: () => 0.999_999, // the longest wait of each step's jitter: the step itself
      onPaymentUpdate: (payment) => {
        if (payment.outcome === 'paid') calledAt.push(t.clock.now());
        throw new Error('database is down');
      },
    });
    const { body } = await t.create('A-1');
    t.service.set(body.payment.id, { state: 'finished', status: true });
    await t.callback(t.service.payments.get(body.payment.id)!);
    for (let second = 0; second < 40 * 60 && calledAt.length < 16; second++) {
      await t.clock.advance(1_000);
      await new Promise((resolve) => setImmediate(resolve));
    }
    const gaps = calledAt.slice(1).map((at, i) => Math.round((at - calledAt[i]!) / 1_000));
    expect(gaps).toEqual([1, 2, 4, 8, 16, 32, 64, 128, 256, 300, 300, 300, 300, 300, 300]);
  });

  it('skips a state overtaken while the hook was down: the hook hears paid once, and pending never', async () => {
    let down = true;
    const heard: string[] = [];
    const t = setup({
      reconcileEveryMs: 0,
      onPaymentUpdate: (payment) => {
        if (down) throw new Error('database is down');
        heard.push(payment.state);
      },
    });
    const { body } = await t.create('A-1');
    t.service.set(body.payment.id, { state: 'finished', status: true });
    await t.callback(t.service.payments.get(body.payment.id)!);
    down = false;
    for (let second = 0; second < 15 * 60; second += 5) await t.clock.advance(5_000);
    await t.proxy.reconcile();
    expect(heard).toEqual(['finished']);
  });

  // SQLite writes the payment and queues its announcement in one step (putPaymentAndEnqueue), the memory store in two.
  it.each([
    { name: 'memory', make: (clock: ManualClock) => new MemoryStore({ clock }) },
    { name: 'SQLite', make: (clock: ManualClock) => createSqliteStore({ path: ':memory:', clock }) },
  ])('leaves no retry of a pending state the hook failed on once paid is recorded, nor lists it as failing ($name)', async ({ make }) => {
    const clock = new ManualClock();
    const store = make(clock);
    const heard: string[] = [];
    const t = setup({
      clock,
      store,
      reconcileEveryMs: 0,
      onPaymentUpdate: (payment) => {
        if (payment.state === 'pending') throw new Error('database is down');
        heard.push(payment.state);
      },
    });
    const { body } = await t.create('A-1');
    // Failed for long: its next try minutes away.
    for (let i = 0; i < 9; i++) await clock.advance(300_000);
    t.service.set(body.payment.id, { state: 'finished', status: true });
    await t.callback(t.service.payments.get(body.payment.id)!);
    expect(heard).toEqual(['finished']);
    expect(await store.dueAnnouncements(Number.MAX_SAFE_INTEGER, 10)).toEqual([]);
    expect((await store.countPayments(clock.now())).failing).toBe(0);
  });

  it('never announces paid again for a finished callback replayed a day later, after 3,500 other payments', async () => {
    const t = setup({ reconcileEveryMs: 0 });
    const { body } = await t.create('A-1');
    t.service.set(body.payment.id, { state: 'finished', status: true });
    const notice = { ...t.service.payments.get(body.payment.id)! };
    await t.callback(notice);
    expect(paidUpdates(t)).toHaveLength(1);
    for (let i = 0; i < 3_500; i++) {
      await t.store.putPayment(
        {
          ...(await t.store.getPayment(body.payment.id))!,
          view: { ...(await t.store.getPayment(body.payment.id))!.view, id: `x${i}`, final: false, state: 'pending', outcome: 'waiting' },
          version: 1,
        },
        0,
      );
      await t.store.putOrder({ orderId: `B-${i}`, payments: [] });
    }
    await t.clock.advance(24 * 60 * 60_000 + 1);
    expect((await t.callback(notice)).status).toBe(200);
    expect(paidUpdates(t)).toHaveLength(1);
    // And the order stays paid: no second payment can be made for it.
    const again = await t.create('A-1');
    expect([again.response.status, again.body.error?.code]).toEqual([409, 'order_paid']);
  });

  it('marks the second of two paid payments of one order, so the shop refunds instead of shipping twice', async () => {
    const t = setup({ reconcileEveryMs: 0 });
    const upi = await t.create('A-1', 'upi');
    const sbp = await t.create('A-1', 'sbp');
    expect(sbp.response.status).toBe(201);
    const infos: { id: string; second?: string }[] = [];
    for (const id of [upi.body.payment.id, sbp.body.payment.id]) {
      t.service.set(id, { state: 'finished', status: true });
      await t.callback(t.service.payments.get(id)!);
    }
    for (const u of paidUpdates(t)) infos.push({ id: u.payment.id, second: u.secondPaymentOf });
    expect(infos).toEqual([
      { id: upi.body.payment.id, second: undefined },
      { id: sbp.body.payment.id, second: upi.body.payment.id },
    ]);
  });
});

describe('the ledger after a restart', () => {
  it('serves the open checkout its own payment and reuses the order’s payment at the service, with an empty store', async () => {
    const first = setup({ reconcileEveryMs: 0 });
    const { body } = await first.create('A-1');
    // The proxy restarts: same service, same secret, a new empty memory store.
    const second = setup({ reconcileEveryMs: 0, fetch: first.service.fetch });
    const status = await second.status(body.payment.id, body.token);
    expect(status.response.status).toBe(200);
    expect(status.body.payment.id).toBe(body.payment.id);
    const third = setup({ reconcileEveryMs: 0, fetch: first.service.fetch, store: new MemoryStore({ clock: first.clock }) });
    const again = await third.create('A-1');
    expect(again.response.status).toBe(200);
    expect(again.body.payment.id).toBe(body.payment.id);
    expect(first.service.creates).toHaveLength(1);
  });

  it('refuses a create for an order the service says is paid, although the store never heard of it', async () => {
    const first = setup({ reconcileEveryMs: 0 });
    const { body } = await first.create('A-1');
    first.service.set(body.payment.id, { state: 'finished', status: true });
    const restarted = setup({ reconcileEveryMs: 0, fetch: first.service.fetch });
    const again = await restarted.create('A-1');
    expect([again.response.status, again.body.error?.code]).toEqual([409, 'order_paid']);
    expect(first.service.creates).toHaveLength(1);
  });
});

describe('order ids travel byte for byte', () => {
  it.each([
    ['surrounding whitespace', ' A-1 '],
    ['a lone surrogate', 'A-\ud800'],
    ['a control character', 'A-\u0000'],
    ['more than 128 characters', 'A'.repeat(129)],
  ])('refuses an orderId with %s with 400 before the shop or the service is asked', async (_, orderId) => {
    let asked = false;
    const t = setup({
      resolveOrder: () => {
        asked = true;
        return { amount: '250.00', currency: 'INR' };
      },
    });
    const { response, body } = await t.create(orderId);
    expect(response.status).toBe(400);
    expect(body.error?.code).toBe('bad_request');
    expect({ asked, sent: t.service.sent.length }).toEqual({ asked: false, sent: 0 });
  });
});
