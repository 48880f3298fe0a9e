import { describe, expect, it } from 'vitest';
import type { PaymentRecord } from '../../../src/proxy/infrastructure/store.js';
import { setup } from '../harness.js';

// The shopper switched methods and paid both: the second payment is marked for the console's refund list before
// the shop's hook hears of it. A mark that loses every race to other writers is never dropped in silence.
describe('the mark of a second paid payment', () => {
  it('is written before the hook hears of the payment, and retried with the announcement while the store keeps refusing it', async () => {
    const t = setup();
    const first = (await t.create('A-1', 'upi')).body.payment.id;
    const second = (await t.create('A-1', 'sbp')).body.payment.id;
    t.service.set(first, { state: 'finished', status: true });
    expect((await t.callback(t.service.payments.get(first))).status).toBe(200);

    // Every write of the mark loses, as to other writers winning each time (the state writes still go through).
    let refusing = true;
    const put = t.store.putPayment.bind(t.store);
    t.store.putPayment = (record: PaymentRecord, version: number) =>
      refusing && record.secondPaymentOf ? Promise.resolve(false) : put(record, version);

    t.service.set(second, { state: 'finished', status: true });
    expect((await t.callback(t.service.payments.get(second))).status).toBe(200);
    await t.clock.advance(1_000);
    const heard = () => t.updates.filter((u) => u.payment.id === second && u.payment.outcome === 'paid');
    expect(heard(), 'the hook is not told before the mark is written').toEqual([]);
    expect((await t.store.getPayment(second))?.secondPaymentOf).toBeUndefined();

    refusing = false;
    await t.clock.advance(10 * 60_000); // the announcement's retries
    expect(heard().map((u) => u.secondPaymentOf)).toEqual([first]);
    expect((await t.store.getPayment(second))?.secondPaymentOf).toBe(first);
    const refunds = await t.store.listPayments({ filter: 'second', limit: 10, now: t.clock.now() });
    expect(refunds.payments.map((p) => p.view.id)).toEqual([second]);
  });
});
