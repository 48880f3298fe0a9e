/**
 * An order paid by one of its payments while a page shows another (the shopper chose SBP, scanned its QR, switched
 * to UPI, then paid the SBP QR), over real HTTP with the real sandbox: the page asking about the other payment is
 * told the order is paid, so that nobody pays it twice; the page following it over the event stream is told at
 * once, and the shop hears "paid" once, for the payment that paid.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { eventually, type Live, pricedByMethod, startLive } from '../sandbox-harness.js';
import { SseReader } from '../sse-reader.js';

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

  it('tells the open event stream of the other payment at once, ends it, and announces paid once, for the payer only', async () => {
    live = await startLive({ resolveOrder: pricedByMethod() });
    const sbp = await live.create('A-2002', 'sbp');
    const upi = await live.create('A-2002', 'upi');
    const events = new SseReader(await fetch(eventsUrl(live, upi.body)));
    const first = await events.nextEvent();
    expect([first?.event, JSON.parse(first!.data!).outcome]).toEqual(['payment', 'waiting']);

    live.sandbox.act(sbp.body.payment.id, 'pay');
    // Nobody asks about UPI meanwhile (and the UPI payment itself does not change): only the ledger's news can come.
    const news = await events.nextEvent(5_000);
    expect(news?.event).toBe('order-paid');
    expect(JSON.parse(news!.data!)).toEqual({ error: { code: 'order_paid', message: expect.any(String) } });
    // No id: Last-Event-ID stays the last state's, which the news is not.
    expect(news?.id).toBeUndefined();
    expect(await events.next(5_000)).toBeUndefined();

    await eventually(() => live!.updates.some((u) => u.payment.outcome === 'paid'), 5_000, 'the SBP payment announced paid');
    const paid = live.updates.filter((u) => u.payment.outcome === 'paid').map((u) => u.payment.id);
    expect(paid).toEqual([sbp.body.payment.id]);
    // The shop hears each state of the UPI payment once, and none of them is paid: `created` and `pending` are both
    // waiting, and whether the create's answer was already `pending` depends on the sandbox's timer.
    const upiOutcomes = live.updates.filter((u) => u.payment.id === upi.body.payment.id).map((u) => u.payment.outcome);
    expect(new Set(upiOutcomes)).toEqual(new Set(['waiting']));
  });

  it('tells a stream opened after the order was paid at once, after the payment as it stands, and ends it', async () => {
    live = await startLive({ resolveOrder: pricedByMethod() });
    const sbp = await live.create('A-2003', 'sbp');
    const upi = await live.create('A-2003', 'upi');
    live.sandbox.act(sbp.body.payment.id, 'pay');
    await eventually(() => live!.updates.some((u) => u.payment.outcome === 'paid'), 5_000, 'the SBP payment announced paid');

    const events = new SseReader(await fetch(eventsUrl(live, upi.body)));
    expect((await events.nextEvent())?.event).toBe('payment');
    expect((await events.nextEvent())?.event).toBe('order-paid');
    expect(await events.next()).toBeUndefined();
    // The stream of the payment that paid ends with its own final state, as any paid payment's does.
    const own = new SseReader(await fetch(eventsUrl(live, sbp.body)));
    expect(JSON.parse((await own.nextEvent())!.data!)).toMatchObject({ outcome: 'paid', final: true });
    expect(await own.next()).toBeUndefined();
  });
});

function eventsUrl(live: Live, { payment, token }: { payment: { id: string }; token: string }): string {
  return `${live.proxyUrl}/payin/events?${new URLSearchParams({ paymentId: payment.id, token })}`;
}
