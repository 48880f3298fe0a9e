/**
 * A reconcile sweep asks about up to 50 payments in one status call. When the service describes one of them in a
 * way the proxy cannot read (a payee not assigned yet written as null fields, an amount it cannot take as money),
 * the others of the batch are still recorded: one odd payment must not keep the rest from being heard of, every
 * sweep, for good. The unreadable one is changed by nothing, named in the log, and asked about again.
 */
import { describe, expect, it } from 'vitest';
import { capturingLogger, setup } from '../harness.js';

describe('a sweep whose batch answer holds a payment the proxy cannot read', () => {
  it('records the other payments of the batch and announces the paid one', async () => {
    const { lines, logger } = capturingLogger();
    // statusDeadlineMs 1: an unreadable answer is not asked again within the sweep (that would wait on the manual clock).
    const t = setup({ reconcileEveryMs: 0, logger, timeouts: { statusDeadlineMs: 1 } });
    const odd = (await t.create('A-1')).body.payment.id;
    const paid = (await t.create('A-2')).body.payment.id;
    t.service.set(odd, { requisites: { address: null, recipient: null, bank: null } as never });
    t.service.set(paid, { state: 'finished', status: true });

    for (let sweep = 0; sweep < 3; sweep++) await t.proxy.reconcile();
    expect(t.updates.filter((u) => u.payment.id === paid && u.payment.outcome === 'paid')).toHaveLength(1);
    expect((await t.store.getOrder('A-2'))?.paidBy).toBe(paid);
    expect((await t.store.getPayment(odd))?.view.state).toBe('pending');
    expect(lines.some((line) => line.includes(odd) && line.includes('cannot be read'))).toBe(true);

    // Still followed: once the service describes it readably, it is recorded.
    t.service.set(odd, { state: 'finished', status: true, requisites: { address: 'shop@okbank' } });
    expect((await t.proxy.reconcile()).checked).toBe(1);
    expect(t.updates.filter((u) => u.payment.id === odd && u.payment.outcome === 'paid')).toHaveLength(1);
  });
});
