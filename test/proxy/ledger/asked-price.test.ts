import { describe, expect, it } from 'vitest';
import { setup } from '../harness.js';

/** A create answer in the service's Payment shape, with `fields` changed. */
function answeringCreateWith(t: ReturnType<typeof setup>, fields: Record<string, unknown>) {
  t.service.onCreate = (body) => ({ body: t.service.add({ orderId: String(body.orderId), ...fields }) });
}

describe('the sum a shopper is asked to pay', () => {
  it('is never one the service made up: a create answer asking more than the shop priced is a 502', async () => {
    const t = setup();
    answeringCreateWith(t, { amount: '2500.00', init_amount: '2500.00' });
    const { response, body } = await t.create('A-1', 'upi');
    expect(response.status).toBe(502);
    expect(body.error?.code).toBe('upstream_error');
    expect(JSON.stringify(body)).not.toContain('2500');
  });

  it('is never in a currency the shop did not price in', async () => {
    const t = setup();
    answeringCreateWith(t, { currency: 'USD' });
    const { response } = await t.create('A-1', 'upi');
    expect(response.status).toBe(502);
  });

  it('is never for a method other than the one the shopper chose', async () => {
    const t = setup();
    answeringCreateWith(t, { method: 'sbp', requisites: { address: '+79001234567' } });
    const { response } = await t.create('A-1', 'upi');
    expect(response.status).toBe(502);
  });

  it("stays the shop's price in the QR when a later answer of the open payment names another sum", async () => {
    const t = setup();
    const { body } = await t.create('A-1', 'upi');
    t.service.set(body.payment.id, { state: 'pending', amount: '9999.00', init_amount: '9999.00', currency: 'USD' });
    await t.clock.advance(60_000);
    const polled = await t.status(body.payment.id, body.token);
    expect(polled.body.payment).toMatchObject({ amount: '250.00', currency: 'INR' });
    expect(polled.body.payment.qr).toContain('&am=250.00&cu=INR&');
    const notice = await t.callback({ ...t.service.payments.get(body.payment.id), state: 'pending' });
    expect(notice.status).toBe(200);
    expect((await t.status(body.payment.id, body.token)).body.payment).toMatchObject({ amount: '250.00', currency: 'INR' });
  });

  it('still reports what was paid when a finished payment paid another sum', async () => {
    const t = setup();
    const { body } = await t.create('A-1', 'upi');
    t.service.set(body.payment.id, { state: 'finished', status: true, amount: '240.00', init_amount: '250.00' });
    await t.clock.advance(60_000);
    const polled = await t.status(body.payment.id, body.token);
    expect(polled.body.payment).toMatchObject({ outcome: 'underpaid', amount: '240.00', initAmount: '250.00' });
  });
});
