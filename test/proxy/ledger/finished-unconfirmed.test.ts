/**
 * The service's paid is `state: "finished"` with `status: true`. A signed answer that says finished with
 * `status: false` has not said paid: the proxy must neither ship on it nor mark the order paid, and must still
 * take the payment as paid once the service says `status: true`.
 */
import { describe, expect, it } from 'vitest';
import { setup } from '../harness.js';

describe('a finished payment whose status flag is false', () => {
  it('is not paid, from a callback or a status call, until the service sets status true', async () => {
    const t = setup();
    const { body } = await t.create('A-1');
    const id = body.payment.id;
    t.service.set(id, { state: 'finished', status: false });
    expect((await t.callback(t.service.payments.get(id))).status).toBe(200);
    const asked = await t.status(id, body.token);
    expect(asked.body.payment.outcome).not.toBe('paid');
    expect(t.updates.filter((u) => u.payment.outcome === 'paid')).toEqual([]);
    expect((await t.store.getOrder('A-1'))?.paidBy).toBeUndefined();

    t.service.set(id, { status: true });
    expect((await t.callback(t.service.payments.get(id))).status).toBe(200);
    expect(t.updates.filter((u) => u.payment.outcome === 'paid').map((u) => u.payment.id)).toEqual([id]);
    expect((await t.store.getOrder('A-1'))?.paidBy).toBe(id);
  });

  it('is paid as before when the answer leaves the flag out', async () => {
    const t = setup();
    const { body } = await t.create('A-1');
    t.service.set(body.payment.id, { state: 'finished' });
    await t.callback(t.service.payments.get(body.payment.id));
    expect(t.updates.filter((u) => u.payment.outcome === 'paid')).toHaveLength(1);
  });
});
