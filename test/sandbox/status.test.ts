import { describe, expect, it } from 'vitest';
import { parseStatusAnswer } from '../../src/shared/provider-messages.js';
import { createPayment, readRefused, readSigned, setup, status } from './helpers.js';

describe('asking for a payment status', () => {
  it('answers one Payment object for a paymentId', async () => {
    const { sandbox } = setup();
    const id = await createPayment(sandbox);
    const response = await status(sandbox, { paymentId: id });
    expect(response.status).toBe(200);
    const body = await readSigned(response);
    expect(Array.isArray(body)).toBe(false);
    expect(body).toMatchObject({ id, state: 'created', orderId: 'A-1001' });
    expect(parseStatusAnswer(body).ok).toBe(true);
  });

  it('answers an object for an order with one payment and an array, in no order to rely on, for an order with several', async () => {
    const { sandbox, clock } = setup();
    const first = await createPayment(sandbox, { orderId: 'O-1' });
    const single = await readSigned(await status(sandbox, { orderId: 'O-1' }));
    expect(single.id).toBe(first);
    await clock.advance(5);
    const second = await createPayment(sandbox, { orderId: 'O-1', method: 'sbp', currency: 'RUB' });
    const several = await readSigned(await status(sandbox, { orderId: 'O-1' }));
    // Oldest first: a shop that takes the first entry as the newest fails here, as the service promises no order.
    expect(several.map((p: { id: string }) => p.id)).toEqual([first, second]);
    expect(several[1].created_at > several[0].created_at).toBe(true);
  });

  it('tells the newest payment of an order by created_at even when both were made within one millisecond', async () => {
    const { sandbox } = setup();
    const first = await createPayment(sandbox, { orderId: 'O-2' });
    const second = await createPayment(sandbox, { orderId: 'O-2', method: 'sbp', currency: 'RUB' });
    const several: { id: string; created_at: string }[] = await readSigned(await status(sandbox, { orderId: 'O-2' }));
    const newest = several.reduce((a, b) => (b.created_at > a.created_at ? b : a));
    expect(newest.id).toBe(second);
    expect(several.find((p) => p.id === first)!.created_at < newest.created_at).toBe(true);
  });

  it('answers arrays for lists of paymentIds or orderIds, leaving out unknown ones', async () => {
    const { sandbox } = setup();
    const a = await createPayment(sandbox, { orderId: 'L-1' });
    const b = await createPayment(sandbox, { orderId: 'L-2' });
    const byIds = await readSigned(await status(sandbox, { paymentIds: [a, 'ffffffffffff0', b] }));
    expect(byIds.map((p: { id: string }) => p.id)).toEqual([a, b]);
    const byOrders = await readSigned(await status(sandbox, { orderIds: ['L-2', 'L-1'] }));
    expect(byOrders.map((p: { id: string }) => p.id).sort()).toEqual([a, b].sort());
    const one = await readSigned(await status(sandbox, { paymentIds: [a] }));
    expect(one).toHaveLength(1);
  });

  it('refuses an unknown payment or order with {status: false, code: 404, message}', async () => {
    const { sandbox } = setup();
    for (const query of [{ paymentId: '66a3942dc1d4f' }, { orderId: 'never' }, { paymentIds: ['x'] }, { orderIds: ['y'] }]) {
      expect((await readRefused(await status(sandbox, query), 404)).message).toMatch(/no payment/);
    }
  });

  it('wants exactly one of paymentId, orderId, paymentIds, orderIds', async () => {
    const { sandbox } = setup();
    const id = await createPayment(sandbox);
    for (const query of [{}, { paymentId: id, orderId: 'A-1001' }, { paymentIds: [] }]) {
      const response = await status(sandbox, query);
      expect((await readRefused(response, 400)).message, JSON.stringify(query)).toMatch(/exactly one|paymentIds/);
    }
  });

  it('shows the state as it is now, with datetime the time of answering', async () => {
    const { sandbox, clock } = setup();
    const id = await createPayment(sandbox);
    await clock.advance(1000);
    const body = await readSigned(await status(sandbox, { paymentId: id }));
    expect(body.state).toBe('pending');
    expect(body.datetime).toBe(Math.floor(clock.now() / 1000));
    expect(body.requisites.address).toMatch(/@okdemo$/);
  });
});
