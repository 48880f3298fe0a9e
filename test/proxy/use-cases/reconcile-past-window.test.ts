/**
 * A payment past its follow window (expiry plus lateGraceMs), whose callbacks never reached the proxy, is still
 * heard by the reconcile sweep. One paid while the proxy could not hear of it (the process down overnight, or the
 * service unreachable from it) is announced paid once the proxy sweeps again, however long past its window that is.
 * One whose payer said "I paid" (in_check) or that is under dispute waits for the service's decision, which may come
 * long after the expiry, and so may the `status: true` of a finish the service has not confirmed: the sweep keeps
 * following it for as long as the service says it is still deciding. The real sandbox over loopback, on a manual
 * clock shared with the proxy, its callbacks sent to an address where nothing listens; the fake service for the
 * unconfirmed finish, which the sandbox never answers.
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

/**
 * A payment of `orderId` created a second before the payer's `action`, whose callbacks go nowhere;
 * `statusDeadlineMs: 1` gives a refused status call no retry, which would wait on the manual clock.
 */
async function unheard(clock: ManualClock, orderId: string, action: string, timeouts: { statusDeadlineMs?: number } = {}) {
  live = await startLive(
    { clock, reconcileEveryMs: 0, callbackUrl: 'http://127.0.0.1:9/payin/callback', timeouts: { lateGraceMs: LATE_GRACE_MS, ...timeouts } },
    { clock, ttlSeconds: TTL_SECONDS },
  );
  const created = await live.create(orderId);
  expect(created.status).toBe(201);
  const id = created.body.payment.id as string;
  await clock.advance(1_000);
  await act(live, id, action);
  return { live, id };
}

const paidUnheard = (clock: ManualClock) => unheard(clock, 'OUT-1', 'pay', { statusDeadlineMs: 1 });
const checkedUnheard = (clock: ManualClock, action: 'in-check' | 'dispute') => unheard(clock, `CHK-${action}`, action);

/** Switches the sandbox's faults: errorRate 1 refuses every API request with 500 or 503. */
function faults(live: Live, settings: Record<string, number>) {
  return fetch(`${live.sandboxUrl}/sandbox/faults`, {
    method: 'PUT',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(settings),
  });
}

describe('a sweep after an outage longer than the follow window', () => {
  it('asks the service about a payment past its window before letting it go, and announces it paid', async () => {
    const clock = new ManualClock();
    const { live, id } = await paidUnheard(clock);
    // Nothing swept for an hour: the proxy was down, and the window closed at 45 minutes.
    await clock.advance(TTL_SECONDS * 1000 + LATE_GRACE_MS + 15 * MINUTE);
    const swept = await live.proxy.reconcile();
    expect(swept.checked).toBe(1);
    expect(live.updates.filter((u) => u.payment.id === id && u.payment.outcome === 'paid')).toHaveLength(1);
  });

  it('keeps asking while the service does not answer, and lets the payment go once it has', async () => {
    const clock = new ManualClock();
    const { live, id } = await paidUnheard(clock);
    expect((await faults(live, { errorRate: 1 })).status).toBe(200);
    // Sweeps every 5 minutes through the window and past it, every one refused by the service.
    for (let t = 0; t < TTL_SECONDS * 1000 + LATE_GRACE_MS + 20 * MINUTE; t += 5 * MINUTE) {
      await clock.advance(5 * MINUTE);
      await live.proxy.reconcile();
    }
    expect(live.updates.some((u) => u.payment.outcome === 'paid')).toBe(false);
    expect((await faults(live, {})).status).toBe(200);
    expect((await live.proxy.reconcile()).checked).toBe(1);
    expect(live.updates.filter((u) => u.payment.id === id && u.payment.outcome === 'paid')).toHaveLength(1);
    // Final now: not asked about again.
    expect((await live.proxy.reconcile()).checked).toBe(0);
  });

  it('lets go of a payment the service still calls open once it has answered past the window', async () => {
    // The service's clock stands still, so it keeps the payment pending past any expiry: only the proxy's moves.
    const clock = new ManualClock();
    const serviceClock = new ManualClock();
    live = await startLive(
      { clock, reconcileEveryMs: 0, callbackUrl: 'http://127.0.0.1:9/payin/callback', timeouts: { lateGraceMs: LATE_GRACE_MS } },
      { clock: serviceClock, ttlSeconds: TTL_SECONDS },
    );
    const created = await live.create('OUT-2');
    const id = created.body.payment.id as string;
    await clock.advance(TTL_SECONDS * 1000 + LATE_GRACE_MS + MINUTE);
    const first = await live.proxy.reconcile();
    expect(first.checked).toBe(1);
    expect((await live.proxy.reconcile()).checked).toBe(0);
    expect(live.updates.some((u) => u.payment.id === id && u.payment.final)).toBe(false);
  });
});

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

describe('a payment whose expiry the proxy learns only when its provisional window closes', () => {
  it('is followed until that expiry plus the grace window, and its payment a day later is announced paid', async () => {
    // A bank transfer payable for three days. The create answer has no expiry and the status call that completes
    // it failed (the service unreachable for a moment), so the proxy followed it for an hour on trust; no sweep
    // reached the service in that hour. The first answer past it brings the expiry three days ahead.
    const clock = new ManualClock();
    let created = false;
    let refuseStatus = true;
    live = await startLive(
      {
        clock,
        reconcileEveryMs: 0,
        callbackUrl: 'http://127.0.0.1:9/payin/callback',
        timeouts: { lateGraceMs: LATE_GRACE_MS, statusDeadlineMs: 1 },
        fetch: async (input, init) => {
          // The status call after the create, which completes its record; the order's look-up before it goes through.
          if (created && refuseStatus && String(input).endsWith('/api/v2/status')) {
            refuseStatus = false;
            throw new TypeError('fetch failed');
          }
          created ||= String(input).endsWith('/api/v2/payments');
          return fetch(input, init);
        },
      },
      { clock, ttlSeconds: 3 * 24 * 60 * 60 },
    );
    expect((await live.create('LONG-1')).status).toBeGreaterThanOrEqual(500);
    const [payment] = live.sandbox.payments().filter((p) => p.orderId === 'LONG-1');
    const id = payment!.id;

    await clock.advance(61 * MINUTE);
    expect((await live.proxy.reconcile()).checked).toBe(1);
    await clock.advance(24 * 60 * MINUTE);
    await act(live, id, 'pay');
    expect((await live.proxy.reconcile()).checked).toBe(1);
    expect(live.updates.filter((u) => u.payment.id === id && u.payment.outcome === 'paid')).toHaveLength(1);
  });
});
