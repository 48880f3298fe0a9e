/**
 * An order the shop re-prices while its payment is open, over real HTTP with the real sandbox: the open payment
 * at the old price is superseded (no page is offered it again) and, if the old QR is paid anyway, the shop hears
 * `superseded` at the old amount, never a plain `paid` it could ship on.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { eventually, type Live, pricedByMethod, startLive } from '../sandbox-harness.js';

let live: Live | undefined;
afterEach(async () => {
  await live?.close();
  live = undefined;
});

/** The currency each method's rails carry: SBP roubles, UPI rupees. */
const currencyOf = (method: string) => (method === 'sbp' ? 'RUB' : 'INR');

async function repricedShop() {
  const prices = new Map<string, string>([['A-1001', '100.00']]);
  live = await startLive({ resolveOrder: (orderId) => ({ amount: prices.get(orderId) ?? '1.00', currency: 'INR' }) });
  return { live, reprice: (orderId: string, amount: string) => prices.set(orderId, amount) };
}

/** The sandbox's payer pays `paymentId`; resolves with what the shop heard of it once it was final. */
async function paidAndHeard(live: Live, paymentId: string, what: string) {
  live.sandbox.act(paymentId, 'pay');
  const final = () => live.updates.filter((u) => u.payment.id === paymentId && u.payment.final);
  await eventually(() => final().length > 0, 5_000, what);
  return final();
}

describe('an order re-priced while its payment is open', () => {
  it('supersedes the old payment: paid anyway, the shop hears superseded at the old price, never paid', async () => {
    const { live, reprice } = await repricedShop();
    const old = await live.create('A-1001');
    expect([old.status, old.body.payment.amount]).toEqual([201, '100.00']);
    reprice('A-1001', '1000.00');
    const fresh = await live.create('A-1001');
    expect([fresh.status, fresh.body.payment.amount]).toEqual([201, '1000.00']);
    expect(fresh.body.payment.id).not.toBe(old.body.payment.id);

    // A page still holding the old payment is told it is no longer offered.
    const oldPage = await live.status(old.body.payment.id, old.body.token);
    expect([oldPage.body.payment.outcome, oldPage.body.payment.state]).toEqual(['superseded', expect.stringMatching(/created|pending/)]);

    const heard = await paidAndHeard(live, old.body.payment.id, 'the old payment announced');
    expect(heard.map((u) => [u.payment.outcome, u.payment.amount])).toEqual([['superseded', '100.00']]);
    expect(live.updates.some((u) => u.payment.outcome === 'paid')).toBe(false);

    // The order is not paid by the old payment: the page that starts again gets the payment at the new price.
    const again = await live.create('A-1001');
    expect([again.status, again.body.payment.id, again.body.payment.amount]).toEqual([200, fresh.body.payment.id, '1000.00']);
    live.sandbox.act(fresh.body.payment.id, 'pay');
    await eventually(() => live.updates.some((u) => u.payment.outcome === 'paid'), 5_000, 'the new payment announced paid');
    expect((await live.create('A-1001')).body.error.code).toBe('order_paid');
  });

  it('never hands out a superseded payment again, even when the price goes back to what it was', async () => {
    const { live, reprice } = await repricedShop();
    const first = await live.create('A-1001');
    reprice('A-1001', '1000.00');
    const second = await live.create('A-1001');
    reprice('A-1001', '100.00');
    const third = await live.create('A-1001');
    expect(third.status).toBe(201);
    expect(new Set([first.body.payment.id, second.body.payment.id, third.body.payment.id]).size).toBe(3);
    expect((await live.status(second.body.payment.id, second.body.token)).body.payment.outcome).toBe('superseded');
    expect((await live.status(third.body.payment.id, third.body.token)).body.payment.outcome).toBe('waiting');
  });

  it('keeps handing out the same payment while the price stays the same', async () => {
    const { live } = await repricedShop();
    const first = await live.create('A-1001');
    const again = await live.create('A-1001');
    expect([again.status, again.body.payment.id, again.body.payment.outcome]).toEqual([200, first.body.payment.id, 'waiting']);
  });

  it('is not what choosing another method does, when the shop prices each method on its own', async () => {
    // The demo's way: UPI in rupees, SBP in roubles. The shopper chose SBP, scanned its QR, then switched to UPI
    // and paid the SBP QR anyway: that is the order's full SBP price, a payment the shop ships on.
    live = await startLive({ resolveOrder: pricedByMethod() });
    const sbp = await live.create('A-1001', 'sbp');
    const upi = await live.create('A-1001', 'upi');
    expect([sbp.status, upi.status]).toEqual([201, 201]);
    expect((await live.status(sbp.body.payment.id, sbp.body.token)).body.payment.outcome).toBe('waiting');

    const heard = await paidAndHeard(live, sbp.body.payment.id, 'the SBP payment announced');
    expect(heard.map((u) => [u.payment.outcome, u.payment.amount, u.payment.currency])).toEqual([['paid', '450.00', 'RUB']]);
    expect((await live.create('A-1001', 'upi')).body.error.code).toBe('order_paid');
  });

  it('supersedes a payment of another method too when the shop re-priced that method, asking the shop its price', async () => {
    // One sum for every method, each in its own currency: the order went from 100 to 1000 while its SBP payment was
    // open, and the shopper switched to UPI. The SBP QR at 100 must not stay payable as if it settled the order.
    const asked: string[] = [];
    let amount = '100.00';
    live = await startLive({
      resolveOrder: (_orderId: string, method: string) => {
        asked.push(method);
        return { amount, currency: currencyOf(method) };
      },
    });
    const sbp = await live.create('A-1001', 'sbp');
    amount = '1000.00';
    asked.length = 0;
    const upi = await live.create('A-1001', 'upi');
    expect([upi.status, upi.body.payment.amount]).toEqual([201, '1000.00']);
    expect(asked).toEqual(['upi', 'sbp']);
    expect((await live.status(sbp.body.payment.id, sbp.body.token)).body.payment.outcome).toBe('superseded');

    await paidAndHeard(live, sbp.body.payment.id, 'the SBP payment announced');
    expect(live.updates.some((u) => u.payment.outcome === 'paid')).toBe(false);
  });

  it('supersedes a payment of another method that the shop no longer prices', async () => {
    let sbpOffered = true;
    live = await startLive({
      resolveOrder: (_orderId: string, method: string) =>
        method === 'upi' || sbpOffered ? { amount: '100.00', currency: currencyOf(method) } : null,
    });
    const sbp = await live.create('A-1001', 'sbp');
    sbpOffered = false;
    expect((await live.create('A-1001', 'upi')).status).toBe(201);
    expect((await live.status(sbp.body.payment.id, sbp.body.token)).body.payment.outcome).toBe('superseded');
  });
});
