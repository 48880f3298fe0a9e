/**
 * The store's pub/sub only tells open event streams of a change, at most once; a change it could not publish (a
 * database that refuses the message, a connection lost at that moment) is still the ledger's, recorded: the
 * order must still be marked paid and the shop still told.
 */
import { describe, expect, it } from 'vitest';
import { setup } from '../harness.js';

describe('a change the store could not publish', () => {
  it('still marks the order paid and tells the shop, and the callback is taken', async () => {
    const warnings: string[] = [];
    const t = setup({ logger: { info: () => {}, warn: (message) => warnings.push(message), error: () => {} } });
    const { body } = await t.create('A-1');
    const id = body.payment.id;
    // PostgreSQL refuses a NOTIFY payload of 8000 bytes or more; any store may lose its connection just then.
    t.store.publish = () => Promise.reject(new Error('payload string too long'));
    t.service.set(id, { state: 'finished', status: true });

    expect((await t.callback(t.service.payments.get(id))).status).toBe(200);
    expect((await t.store.getOrder('A-1'))?.paidBy).toBe(id);
    expect(t.updates.filter((u) => u.payment.outcome === 'paid').map((u) => u.payment.id)).toEqual([id]);
    expect(warnings.some((w) => /publish/.test(w))).toBe(true);
  });
});
