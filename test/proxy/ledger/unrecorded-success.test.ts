/**
 * A hook that succeeded but whose success the store could not record (the database dropped the connection in
 * between) is called again, as docs/guarantees.md says. The log must say that, not that the shop's hook failed:
 * an operator reading "onPaymentUpdate failed" looks for a fault in the shop's code that is not there.
 */
import { describe, expect, it } from 'vitest';
import { MemoryStore } from '../../../src/proxy/infrastructure/memory-store.js';
import { ManualClock } from '../../../src/shared/manual-clock.js';
import { capturingLogger, setup } from '../harness.js';

/** A memory store whose next commit of an announcement fails as a dropped connection does. */
class CommitFailsOnce extends MemoryStore {
  failNext = false;
  override async commitAnnouncement(paymentId: string, state: string): Promise<void> {
    if (this.failNext) {
      this.failNext = false;
      throw new Error('connection terminated unexpectedly');
    }
    return super.commitAnnouncement(paymentId, state);
  }
}

describe('a hook whose success could not be recorded', () => {
  it('is logged as the store failing after the hook succeeded, and the hook is called again', async () => {
    const clock = new ManualClock();
    const store = new CommitFailsOnce({ clock });
    const { lines, logger } = capturingLogger();
    const t = setup({ clock, store, logger, reconcileEveryMs: 0 });
    const { body } = await t.create('A-1');
    const id = body.payment.id;
    t.service.set(id, { state: 'finished', status: true });
    store.failNext = true;
    expect((await t.callback(t.service.payments.get(id))).status).toBe(200);
    const said = lines.filter((line) => line.includes(id) && !line.startsWith('a create'));
    expect(said.some((line) => line.startsWith('onPaymentUpdate failed'))).toBe(false);
    expect(said.some((line) => line.includes('could not be recorded') && line.includes('connection terminated'))).toBe(true);
    await clock.advance(5_000);
    await t.proxy.reconcile(); // drains what is due, whether or not the retry timer has run yet
    const paid = t.updates.filter((u) => u.payment.outcome === 'paid');
    expect(paid).toHaveLength(2);
    expect(await store.wasAnnounced(id, 'finished')).toBe(true);
  });
});
