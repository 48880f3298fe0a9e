/**
 * Nothing in a signed callback tells a replay from the service's own redelivery, and /callback has no rate limit:
 * whoever captured one can post it as often as they like. What that costs the service is bounded per payment, not
 * per copy: a status call per coalescing window (3 s) and one series of re-checks at a time, on the paths where a
 * callback is checked with the service (a "paid" its status answer does not say yet, a payment the store has no
 * record of). The payment a callback is about is still recorded and announced once when the service says it is paid.
 */
import { describe, expect, it } from 'vitest';
import { signBody } from '../../../src/shared/hmac.js';
import { SECRET } from '../fake-service.js';
import { passTime, setup, until } from '../harness.js';

const COALESCE_MS = 3_000;
/** The re-checks after a lagging "paid" are done 45 s after it (paid-rechecks.ts: at 2, 5, 15 and 45 s). */
const RECHECKS_DONE_MS = 45_000;

type Proxy = ReturnType<typeof setup>;

/** 20 copies one after another, then 20 at once; every one answered `status`. */
async function replay(t: Proxy, notice: unknown, status = 200): Promise<void> {
  for (let i = 0; i < 20; i++) expect((await t.callback(notice)).status).toBe(status);
  const answers = await Promise.all(Array.from({ length: 20 }, () => t.callback(notice)));
  expect(answers.map((a) => a.status)).toEqual(Array(20).fill(status));
}

const paid = (t: Proxy) => t.updates.filter((u) => u.payment.outcome === 'paid');

describe('a captured "paid" callback replayed while the status answer still says the payment is open', () => {
  async function lagging() {
    const t = setup({ reconcileEveryMs: 0 });
    const { body } = await t.create('A-1');
    const id = body.payment.id;
    // The service's own "finished" callback, captured; its status answer says pending for now.
    const notice = { ...t.service.payments.get(id)!, state: 'finished', status: true };
    return { ...t, id, notice, before: t.service.paymentStatuses.length };
  }

  it('costs one status call per coalescing window and one series of re-checks, not a call and four re-checks per copy', async () => {
    const t = await lagging();
    await replay(t, t.notice);
    expect(t.service.paymentStatuses.length - t.before).toBe(1);
    await passTime(t.clock, RECHECKS_DONE_MS + 1_000);
    expect(t.service.paymentStatuses.length - t.before).toBe(1 + 4);
    expect((await t.store.getPayment(t.id))!.view.state).toBe('pending');
    expect(paid(t)).toEqual([]);
  });

  it('takes a copy whose signature is written otherwise (the hex in upper case) for a copy still', async () => {
    const t = await lagging();
    const signature = await signBody(SECRET, JSON.stringify(t.notice));
    for (const written of [signature, signature.toUpperCase(), ` ${signature.slice(0, 8).toUpperCase()}${signature.slice(8)}`]) {
      expect((await t.callback(t.notice, written)).status).toBe(200);
    }
    expect(t.service.paymentStatuses.length - t.before).toBe(1);
  });

  it('asks afresh about a callback that says something else, however soon after a copy: the service confirming its finish', async () => {
    const t = await lagging();
    await replay(t, { ...t.notice, status: false });
    t.service.set(t.id, { state: 'finished', status: true });
    expect((await t.callback(t.notice)).status).toBe(200);
    expect(t.service.paymentStatuses.length - t.before).toBe(2);
    expect(paid(t)).toHaveLength(1);
  });

  it('asks again for a copy after the window, and starts re-checks again once the last series is over', async () => {
    const t = await lagging();
    await t.callback(t.notice);
    await passTime(t.clock, COALESCE_MS); // the re-check at 2 s
    await t.callback(t.notice); // a status call of its own; its re-checks are the series already running
    expect(t.service.paymentStatuses.length - t.before).toBe(3);
    await passTime(t.clock, RECHECKS_DONE_MS); // the re-checks at 5, 15 and 45 s
    expect(t.service.paymentStatuses.length - t.before).toBe(6);
    await t.callback(t.notice);
    await passTime(t.clock, RECHECKS_DONE_MS);
    expect(t.service.paymentStatuses.length - t.before).toBe(6 + 1 + 4);
  });

  it('records paid and announces it once when the service confirms it after the replays stop', async () => {
    const t = await lagging();
    await replay(t, t.notice);
    t.service.set(t.id, { state: 'finished', status: true });
    await passTime(t.clock, 2_000);
    await until(() => paid(t).length === 1, 'the re-check to announce paid');
    expect((await t.store.getPayment(t.id))!.view.state).toBe('finished');
    await replay(t, t.notice);
    await passTime(t.clock, RECHECKS_DONE_MS);
    expect(paid(t)).toHaveLength(1);
  });

  it('believes the service at once on a callback after the window of a replay, without waiting for a re-check', async () => {
    const t = await lagging();
    await replay(t, t.notice);
    await passTime(t.clock, COALESCE_MS); // the first re-check, at 2 s, still hears pending
    t.service.set(t.id, { state: 'finished', status: true });
    const calls = t.service.paymentStatuses.length;
    expect((await t.callback(t.notice)).status).toBe(200);
    expect(t.service.paymentStatuses.length).toBeGreaterThan(calls);
    expect((await t.store.getPayment(t.id))!.view.state).toBe('finished');
    await passTime(t.clock, RECHECKS_DONE_MS);
    expect(paid(t)).toHaveLength(1);
  });
});

describe('a captured callback replayed about a payment the store has no record of', () => {
  it('asks the service once per coalescing window when the service does not know the payment either', async () => {
    const t = setup({ reconcileEveryMs: 0 });
    const notice = { ...t.service.add({ orderId: 'B-1' }), id: 'pay-nobody-knows', state: 'finished', status: true };
    await replay(t, notice);
    expect(t.service.paymentStatuses).toHaveLength(1);
    await passTime(t.clock, COALESCE_MS);
    await replay(t, notice);
    expect(t.service.paymentStatuses).toHaveLength(2);
    expect(t.updates).toEqual([]);
  });

  it('asks once for copies arriving together, and records and announces the paid payment once', async () => {
    const t = setup({ reconcileEveryMs: 0 });
    const payment = t.service.add({ orderId: 'B-2', state: 'finished', status: true });
    const answers = await Promise.all(Array.from({ length: 20 }, () => t.callback(payment)));
    expect(answers.map((a) => a.status)).toEqual(Array(20).fill(200));
    expect(t.service.paymentStatuses).toHaveLength(1);
    expect(paid(t).map((u) => [u.payment.id, u.source])).toEqual([[payment.id, 'callback']]);
  });

  it('adopts it open while the status answer lags, asks once per window, and announces paid once the service confirms it', async () => {
    const t = setup({ reconcileEveryMs: 0 });
    const payment = t.service.add({ orderId: 'B-3' });
    const notice = { ...payment, state: 'finished', status: true };
    await replay(t, notice);
    expect((await t.store.getPayment(payment.id))!.view.state).toBe('pending');
    expect(t.service.paymentStatuses).toHaveLength(1);
    t.service.set(payment.id, { state: 'finished', status: true });
    await passTime(t.clock, 2_000);
    await until(() => paid(t).length === 1, 'a re-check to announce paid');
    await passTime(t.clock, RECHECKS_DONE_MS);
    expect(t.service.paymentStatuses).toHaveLength(2);
    expect(paid(t)).toHaveLength(1);
  });

  it('answers 502 while the status answer has it finished but not paid yet, so that the service delivers it again', async () => {
    const t = setup({ reconcileEveryMs: 0 });
    // An unconfirmed finish is never recorded, so nothing in the proxy would ask about this payment again.
    const payment = t.service.add({ orderId: 'B-4', state: 'finished', status: false });
    const notice = { ...payment, status: true };
    await replay(t, notice, 502);
    expect(t.service.paymentStatuses).toHaveLength(1);
    t.service.set(payment.id, { state: 'finished', status: true });
    await passTime(t.clock, COALESCE_MS);
    expect((await t.callback(notice)).status).toBe(200);
    expect(paid(t).map((u) => u.payment.id)).toEqual([payment.id]);
  });
});
