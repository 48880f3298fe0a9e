/**
 * An order paid by one of its payments while a page shows another (the shopper chose SBP, scanned its QR, switched
 * to UPI, then paid the SBP QR), over real HTTP with the real sandbox: the page asking about the other payment is
 * told the order is paid, so that nobody pays it twice.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { eventually, type Live, pricedByMethod, startLive } from '../sandbox-harness.js';

let live: Live | undefined;
afterEach(async () => {
  await live?.close();
  live = undefined;
});

describe('an order paid by another of its payments', () => {
  it('answers the page of the payment still open with order_paid', async () => {
    live = await startLive({ resolveOrder: pricedByMethod() });
    const sbp = await live.create('A-2001', 'sbp');
    const upi = await live.create('A-2001', 'upi');
    expect((await live.status(upi.body.payment.id, upi.body.token)).body.payment.outcome).toBe('waiting');

    live.sandbox.act(sbp.body.payment.id, 'pay');
    await eventually(() => live!.updates.some((u) => u.payment.outcome === 'paid'), 5_000, 'the SBP payment announced paid');

    const upiPage = await live.status(upi.body.payment.id, upi.body.token);
    expect([upiPage.status, upiPage.body.error?.code]).toEqual([409, 'order_paid']);
    // The payment that paid is answered as it is.
    const sbpPage = await live.status(sbp.body.payment.id, sbp.body.token);
    expect([sbpPage.status, sbpPage.body.payment.outcome]).toEqual([200, 'paid']);
  });
});
