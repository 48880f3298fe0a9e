/**
 * A payment whose payer said "I paid" (in_check) or that is under dispute waits for the service's decision, which
 * may come long after the payment's expiry; so may the `status: true` of a finish the service has not confirmed.
 * The sweep keeps following such a payment past its window for as long as the service says it is still deciding,
 * so that a decision whose callbacks never reached the proxy is still heard. The real sandbox over loopback, on a
 * manual clock shared with the proxy, its callbacks sent to an address where nothing listens; the fake service for
 * the unconfirmed finish, which the sandbox never answers.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { ManualClock } from '../../../src/shared/manual-clock.js';
import { setup } from '../harness.js';
import { startLive, type Live } from '../sandbox-harness.js';

const MINUTE = 60_000;
const TTL_SECONDS = 15 * 60;
const LATE_GRACE_MS = 30 * MINUTE;

let live: Live | undefined;
afterEach(async () => {
  await live?.close();
  live = undefined;
});

/** The payer's or the operator's action at the sandbox (in-check, dispute, pay, fail). */
async function act(live: Live, id: string, action: string) {
  const response = await fetch(`${live.sandboxUrl}/sandbox/payments/${id}/${action}`, { method: 'POST' });
  expect(response.status).toBe(200);
}

async function checkedUnheard(clock: ManualClock, action: 'in-check' | 'dispute') {
  live = await startLive(
    { clock, reconcileEveryMs: 0, callbackUrl: 'http://127.0.0.1:9/payin/callback', timeouts: { lateGraceMs: LATE_GRACE_MS } },
    { clock, ttlSeconds: TTL_SECONDS },
  );
  const created = await live.create(`CHK-${action}`);
  expect(created.status).toBe(201);
  const id = created.body.payment.id as string;
  await clock.advance(1_000);
  await act(live, id, action);
  return { live, id };
}

describe('a payment the service is still checking past its follow window', () => {
  for (const action of ['in-check', 'dispute'] as const) {
    it(`is still followed after ${action}, and its late decision is announced paid`, async () => {
      const clock = new ManualClock();
      const { live, id } = await checkedUnheard(clock, action);
      // Sweeps every 10 minutes for two hours: the service keeps saying the payment is being checked.
      for (let t = 0; t < 2 * 60 * MINUTE; t += 10 * MINUTE) {
        await clock.advance(10 * MINUTE);
        expect((await live.proxy.reconcile()).checked).toBe(1);
      }
      // The operator decides at last; the callbacks go nowhere.
      await act(live, id, 'pay');
      expect((await live.proxy.reconcile()).checked).toBe(1);
      expect(live.updates.filter((u) => u.payment.id === id && u.payment.outcome === 'paid')).toHaveLength(1);
      expect((await live.proxy.reconcile()).checked).toBe(0);
    });
  }

  it('is let go once the service has decided, whatever it decided', async () => {
    const clock = new ManualClock();
    const { live, id } = await checkedUnheard(clock, 'in-check');
    await clock.advance(TTL_SECONDS * 1000 + LATE_GRACE_MS + 10 * MINUTE);
    expect((await live.proxy.reconcile()).checked).toBe(1);
    await act(live, id, 'fail');
    expect((await live.proxy.reconcile()).checked).toBe(1);
    expect(live.updates.filter((u) => u.payment.id === id && u.payment.outcome === 'failed')).toHaveLength(1);
    expect((await live.proxy.reconcile()).checked).toBe(0);
  });
});

describe('a finish the service has not confirmed past the follow window', () => {
  it('is asked about until the service sets status true, then announced paid', async () => {
    const t = setup({ reconcileEveryMs: 0, timeouts: { lateGraceMs: LATE_GRACE_MS } });
    const { body } = await t.create('A-1');
    const id = body.payment.id;
    t.service.set(id, { state: 'finished', status: false });
    for (let t0 = 0; t0 < 2 * 60 * MINUTE; t0 += 10 * MINUTE) {
      await t.clock.advance(10 * MINUTE);
      expect((await t.proxy.reconcile()).checked).toBe(1);
    }
    expect(t.updates.some((u) => u.payment.outcome === 'paid')).toBe(false);
    t.service.set(id, { status: true });
    expect((await t.proxy.reconcile()).checked).toBe(1);
    expect(t.updates.filter((u) => u.payment.id === id && u.payment.outcome === 'paid')).toHaveLength(1);
  });
});
