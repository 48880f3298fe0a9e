/**
 * One answer of the service stamped far from the others does not move the proxy's idea of the service's clock: an
 * old signed answer replayed, a garbled `datetime`, or one node of the service whose clock is an hour off among nodes
 * that agree. Believed, that one answer stamps every answer, event and hook call after it with a serverTime an hour
 * on, so an open checkout shows its payment expired while it can still be paid, and a payment confirmed meanwhile is
 * listed in the console as paid late for good. The fake service, whose answers carry whatever `datetime` the test
 * sets, and the proxy on a manual clock.
 */
import { describe, expect, it } from 'vitest';
import { listingOf } from '../../../src/proxy/infrastructure/console-store.js';
import { parseTimestamp } from '../../../src/shared/timestamps.js';
import { setup } from '../harness.js';

const HOUR = 3_600_000;
/** Past the status coalescer's window, so that each status call of the page asks the service. */
const NEXT_POLL_MS = 5_000;

const seconds = (ms: number) => Math.floor(ms / 1000);

/** Milliseconds from an answer's serverTime to the payment's expiry: what the checkout counts down. */
const toExpiry = (payment: { expiresAt: string; serverTime: string }) =>
  parseTimestamp(payment.expiresAt)! - parseTimestamp(payment.serverTime)!;

/** A payment created at the fake service, and a page that has polled its status three times on agreeing answers. */
async function followedPayment() {
  const t = setup();
  const created = await t.create('OUTLIER-1');
  expect(created.response.status).toBe(201);
  const { id } = created.body.payment;
  for (let i = 0; i < 3; i++) {
    await t.clock.advance(NEXT_POLL_MS);
    t.service.set(id, { datetime: seconds(t.clock.now()) });
    expect((await t.status(id, created.body.token)).response.status).toBe(200);
  }
  const poll = async (datetime: number) => {
    await t.clock.advance(NEXT_POLL_MS);
    t.service.set(id, { datetime: seconds(datetime) });
    return (await t.status(id, created.body.token)).body.payment;
  };
  return { t, id, poll };
}

describe("one answer far from the service's clock", () => {
  it('does not show the shopper an open payment as expired', async () => {
    const { t, poll } = await followedPayment();
    const left = () => parseTimestamp('2026-01-15T10:15:00Z')! - t.clock.now();
    const shown = await poll(t.clock.now() + HOUR);
    expect(Math.abs(toExpiry(shown) - left())).toBeLessThanOrEqual(2_000);
    // Nor the answers after it, once the service's answers agree again.
    expect(Math.abs(toExpiry(await poll(t.clock.now())) - left())).toBeLessThanOrEqual(2_000);
  });

  it('is never a callback: anyone may replay a signed one, so its datetime moves no serverTime', async () => {
    const { t, id, poll } = await followedPayment();
    const replayed = { ...t.service.payments.get(id)!, datetime: seconds(t.clock.now() + 20 * HOUR) };
    for (let i = 0; i < 5; i++) expect((await t.callback(replayed)).status).toBe(200);
    const left = parseTimestamp('2026-01-15T10:15:00Z')! - t.clock.now() - NEXT_POLL_MS;
    expect(Math.abs(toExpiry(await poll(t.clock.now())) - left)).toBeLessThanOrEqual(2_000);
  });

  it('does not list the payment it confirms as paid late', async () => {
    const { t, id, poll } = await followedPayment();
    t.service.set(id, { state: 'finished' });
    expect((await poll(t.clock.now() + HOUR)).outcome).toBe('paid');
    const record = (await t.store.getPayment(id))!;
    expect(listingOf(record).tags).not.toContain('late');
  });
});
