import { describe, expect, it } from 'vitest';
import { setup } from '../harness.js';

// An order is paid when the ledger records a payment of it paid, whether or not the shop configured a hook.
// The order's record is scratch until it is paid (a store may drop it after its time to live); a paid order is
// kept for good and refused at once, without asking the service.
describe('a proxy with no onPaymentUpdate hook', () => {
  const DAY_MS = 24 * 60 * 60 * 1000;

  async function paidOrder() {
    const t = setup({ onPaymentUpdate: undefined });
    const { body } = await t.create('A-1');
    const id = body.payment.id;
    t.service.set(id, { state: 'finished', status: true });
    expect((await t.callback(t.service.payments.get(id))).status).toBe(200);
    return { ...t, id };
  }

  it('marks the order paid by the payment the ledger recorded paid', async () => {
    const t = await paidOrder();
    expect((await t.store.getOrder('A-1'))?.paidBy).toBe(t.id);
  });

  it('marks it paid once a create that held the order at that moment is done', async () => {
    const t = setup({ onPaymentUpdate: undefined });
    const { body } = await t.create('A-1');
    expect(await t.store.claim('order:A-1', 'a create on another instance', 60_000)).toBe(true);
    t.service.set(body.payment.id, { state: 'finished', status: true });
    await t.callback(t.service.payments.get(body.payment.id));
    expect((await t.store.getOrder('A-1'))?.paidBy).toBeUndefined();
    await t.store.release('order:A-1', 'a create on another instance');
    await t.clock.advance(1_000);
    expect((await t.store.getOrder('A-1'))?.paidBy).toBe(body.payment.id);
  });

  it("marks a second paid payment of the order for the console's refund list, as a hook's delivery would", async () => {
    // The shopper switched methods and paid both: without a hook, the console's 'second' filter is how the shop
    // learns that one must be refunded.
    const t = setup({ onPaymentUpdate: undefined });
    const first = (await t.create('A-1', 'upi')).body.payment.id;
    const second = (await t.create('A-1', 'sbp')).body.payment.id;
    for (const id of [first, second]) {
      t.service.set(id, { state: 'finished', status: true });
      expect((await t.callback(t.service.payments.get(id))).status).toBe(200);
    }
    expect((await t.store.getOrder('A-1'))?.paidBy).toBe(first);
    expect((await t.store.getPayment(second))?.secondPaymentOf).toBe(first);
    const refunds = await t.store.listPayments({ filter: 'second', limit: 10, now: t.clock.now() });
    expect(refunds.payments.map((p) => p.view.id)).toEqual([second]);
  });

  it('refuses a later create with 409 order_paid once the scratch window has passed, without a second payment', async () => {
    const t = await paidOrder();
    await t.clock.advance(DAY_MS + 60_000); // past the memory store's time to live for unpaid orders
    // The service no longer finds the order by its id (it answers lookups by order for recent orders only).
    t.service.onStatus = (body) => (body.orderId !== undefined ? { status: 404, body: { status: false, code: 404 } } : undefined);
    const createsBefore = t.service.creates.length;
    const again = await t.create('A-1');
    expect(again.response.status).toBe(409);
    expect(again.body.error?.code).toBe('order_paid');
    expect(t.service.creates).toHaveLength(createsBefore);
  });
});
