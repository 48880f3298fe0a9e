/**
 * The service's clock is not the shop server's: `expiresAt` is written on the service's clock, so the `serverTime`
 * beside it must be on that clock too, or the checkout counts down to a time the service never meant; and the proxy
 * follows a payment for its grace window after the real expiry, not after the service's clock reading taken as its
 * own. The real sandbox over loopback on a clock set apart from the proxy's (a service minutes ahead or behind, or
 * a shop server without time sync).
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { Clock } from '../../../src/shared/clock.js';
import { createMemoryStore } from '../../../src/proxy/index.js';
import { listingOf } from '../../../src/proxy/infrastructure/console-store.js';
import { headerAuth, OPERATOR_HEADER } from '../../console-api/console-harness.js';
import { ManualClock } from '../../../src/shared/manual-clock.js';
import { parseTimestamp } from '../../../src/shared/timestamps.js';
import { startLive, type Live } from '../sandbox-harness.js';

const MINUTE = 60_000;
const TTL_SECONDS = 15 * 60;
const LATE_GRACE_MS = 30 * MINUTE;

/** `clock` moved by `offsetMs`: the service's clock, as far from the shop's as the test says. */
const clockApart = (clock: Clock, offsetMs: number): Clock => ({
  now: () => clock.now() + offsetMs,
  setTimeout: (callback, ms) => clock.setTimeout(callback, ms),
  clearTimeout: (handle) => clock.clearTimeout(handle),
});

/** Milliseconds from an answer's serverTime to the payment's expiry: what the checkout counts down. */
const toExpiry = (payment: { expiresAt: string; serverTime: string }) =>
  parseTimestamp(payment.expiresAt)! - parseTimestamp(payment.serverTime)!;

let live: Live | undefined;
afterEach(async () => {
  await live?.close();
  live = undefined;
});

/** A proxy on a manual clock, the sandbox's `offsetMs` apart from it, and a payment of `orderId` made through them. */
async function paymentApart(offsetMs: number, orderId: string) {
  const clock = new ManualClock();
  const store = createMemoryStore({ clock });
  live = await startLive(
    { clock, store, reconcileEveryMs: 0, timeouts: { lateGraceMs: LATE_GRACE_MS }, console: headerAuth },
    { clock: clockApart(clock, offsetMs), ttlSeconds: TTL_SECONDS },
  );
  const created = await live.create(orderId);
  expect(created.status).toBe(201);
  return { clock, store, live, created: created.body as { payment: any; token: string } };
}

describe("answers on the service's clock", () => {
  for (const [who, offset] of [
    ['ten minutes ahead of', 10 * MINUTE],
    ['ten minutes behind', -10 * MINUTE],
    ['three hours ahead of', 3 * 60 * MINUTE],
  ] as const) {
    it(`counts down the payment's real time when the service's clock is ${who} the shop's`, async () => {
      const { clock, live, created } = await paymentApart(offset, `SKEW-${offset}`);
      // The service writes whole seconds: the answer may say up to a second less, never more.
      expect(toExpiry(created.payment)).toBeGreaterThanOrEqual(TTL_SECONDS * 1000 - 2_000);
      expect(toExpiry(created.payment)).toBeLessThanOrEqual(TTL_SECONDS * 1000 + 2_000);
      await clock.advance(MINUTE);
      const read = await live.status(created.payment.id, created.token);
      expect(toExpiry(read.body.payment)).toBeGreaterThanOrEqual(TTL_SECONDS * 1000 - MINUTE - 2_000);
      expect(toExpiry(read.body.payment)).toBeLessThanOrEqual(TTL_SECONDS * 1000 - MINUTE + 2_000);
      // The shop's hook reads the same pair, each time within that minute.
      expect(live.updates.length).toBeGreaterThan(0);
      for (const { payment } of live.updates) {
        expect(toExpiry(payment)).toBeGreaterThanOrEqual(TTL_SECONDS * 1000 - MINUTE - 2_000);
        expect(toExpiry(payment)).toBeLessThanOrEqual(TTL_SECONDS * 1000 + 2_000);
      }
    });
  }

  it("follows a payment for the grace window after its real expiry when the service's clock is behind", async () => {
    const offset = -20 * MINUTE;
    const { clock, store, created } = await paymentApart(offset, 'SKEW-FOLLOW');
    const followUntil = (await store.getPayment(created.payment.id))!.followUntil!;
    // The expiry on the proxy's clock is 15 minutes from now; the window closes 30 minutes after it.
    expect(Math.abs(followUntil - (clock.now() + TTL_SECONDS * 1000 + LATE_GRACE_MS))).toBeLessThanOrEqual(2_000);
  });

  it("stamps answers with the proxy's own clock when the service's agrees with it within a second or so", async () => {
    const { live, created } = await paymentApart(900, 'SKEW-NONE');
    const read = await live.status(created.payment.id, created.token);
    expect(read.body.payment.serverTime).toBe(new Date(new ManualClock().now()).toISOString());
  });

  it("does not mark a payment paid before its expiry as paid late when the service's clock is behind", async () => {
    const { clock, store, live, created } = await paymentApart(-10 * MINUTE, 'SKEW-LATE');
    // Paid 3 minutes before the expiry: the proxy's clock reads 2 minutes past what the service wrote as the expiry.
    await clock.advance(12 * MINUTE);
    const paid = await fetch(`${live.sandboxUrl}/sandbox/payments/${created.payment.id}/pay`, { method: 'POST' });
    expect(paid.status).toBe(200);
    const read = await live.status(created.payment.id, created.token);
    expect(read.body.payment.outcome).toBe('paid');
    const record = (await store.getPayment(created.payment.id))!;
    expect(listingOf(record).tags).not.toContain('late');
  });

  it("does not list an open payment as stuck before its expiry when the service's clock is behind", async () => {
    const { clock, live, created } = await paymentApart(-10 * MINUTE, 'SKEW-STUCK');
    // 9 minutes before the expiry, past what the service wrote as the expiry on the proxy's clock.
    await clock.advance(6 * MINUTE);
    const answer = await fetch(`${live.proxyUrl}/payin/console/api/payments?filter=stuck`, {
      headers: { [OPERATOR_HEADER]: 'ana', 'sec-fetch-site': 'same-origin' },
    });
    expect(answer.status).toBe(200);
    const body = (await answer.json()) as { payments: { id: string; stuck: boolean }[]; counts: { stuck: number } };
    expect(body.payments.map((p) => p.id)).not.toContain(created.payment.id);
    expect(body.counts.stuck).toBe(0);
  });
});
