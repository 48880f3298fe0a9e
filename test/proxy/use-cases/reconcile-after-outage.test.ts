/**
 * A payment paid while the proxy could not hear of it (the process down overnight, or the service unreachable from
 * it), whose callbacks the service gave up on, is still announced paid once the proxy sweeps again, however long
 * past its follow window (expiry plus lateGraceMs) that is. The real sandbox over loopback, on a manual clock shared
 * with the proxy; the service's callbacks go to an address where nothing listens.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { ManualClock } from '../../../src/shared/manual-clock.js';
import { startLive, type Live } from '../sandbox-harness.js';

const MINUTE = 60_000;
const TTL_SECONDS = 15 * 60;
const LATE_GRACE_MS = 30 * MINUTE;

let live: Live | undefined;
afterEach(async () => {
  await live?.close();
  live = undefined;
});

/** `statusDeadlineMs: 1` gives a refused status call no retry, which would wait on the manual clock. */
async function paidUnheard(clock: ManualClock) {
  live = await startLive(
    {
      clock,
      reconcileEveryMs: 0,
      callbackUrl: 'http://127.0.0.1:9/payin/callback',
      timeouts: { lateGraceMs: LATE_GRACE_MS, statusDeadlineMs: 1 },
    },
    { clock, ttlSeconds: TTL_SECONDS },
  );
  const created = await live.create('OUT-1');
  expect(created.status).toBe(201);
  const id = created.body.payment.id as string;
  await clock.advance(1_000);
  const paid = await fetch(`${live.sandboxUrl}/sandbox/payments/${id}/pay`, { method: 'POST' });
  expect(paid.status).toBe(200);
  return { live, id };
}

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
