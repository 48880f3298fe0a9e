/**
 * A create that ended without an answer leaves a payment at the service that this proxy may not know. The next
 * create finds it there instead of making a second one, but only when it is still the payment the shop asks for:
 * after the shop re-priced the order (or the currency changed), handing it out would ask the shopper for the old
 * sum, and paying it would be `underpaid` (or an overpayment) of an order the shopper believes paid.
 */
import { describe, expect, it } from 'vitest';
import { setup } from '../harness.js';

/** A create that makes its payment at the service, then loses the answer, and a look-up that fails after it. */
function lostAnswerThenLookupDown(t: ReturnType<typeof setup>) {
  let statusCalls = 0;
  t.service.onCreate = (body) => {
    t.service.add({ orderId: String(body.orderId), amount: String(body.amount), init_amount: String(body.amount) });
    return 'network-error';
  };
  // The look-up before the first create answers; the one after the lost answer does not.
  t.service.onStatus = () => (statusCalls++ === 0 ? undefined : { status: 503, body: {} });
  return () => {
    t.service.onCreate = () => undefined;
    t.service.onStatus = () => undefined;
  };
}

describe('a create retried after one that ended without an answer', () => {
  it('does not hand out the lost payment at the old price once the shop re-priced the order', async () => {
    let price = '250.00';
    const t = setup({ resolveOrder: () => ({ amount: price, currency: 'INR' }), timeouts: { statusDeadlineMs: 1 } });
    const serviceBack = lostAnswerThenLookupDown(t);
    expect((await t.create('A-1')).response.status).toBe(502);
    serviceBack();
    price = '300.00';
    const { response, body } = await t.create('A-1');
    expect(response.status).toBe(201);
    expect(body.payment.amount).toBe('300.00');
    expect(t.service.creates).toHaveLength(2);
  });

  it('still hands out the lost payment when the price is the same, without a second create', async () => {
    const t = setup({ timeouts: { statusDeadlineMs: 1 } });
    const serviceBack = lostAnswerThenLookupDown(t);
    expect((await t.create('A-1')).response.status).toBe(502);
    serviceBack();
    const { response, body } = await t.create('A-1');
    expect([response.status, body.payment.amount]).toEqual([201, '250.00']);
    expect(t.service.creates).toHaveLength(1);
  });
});
