/**
 * A shop's onPaymentUpdate that takes longer than its lease (`hookLeaseMs`): while it runs, reconcile sweeps and
 * retries must not call it a second time for the same payment and state; when its process is gone, the lease
 * lapses and another instance delivers the announcement.
 */
import { describe, expect, it } from 'vitest';
import { MemoryStore } from '../../../src/proxy/infrastructure/memory-store.js';
import { ManualClock } from '../../../src/shared/manual-clock.js';
import type { PaymentView } from '../../../src/shared/payment-view.js';
import { setup, until } from '../harness.js';

const LEASE_MS = 1_000;

/** A hook that holds every call for a finished payment until released, counting the calls running at once. */
function slowHook() {
  let running = 0;
  let mostAtOnce = 0;
  const calls: PaymentView[] = [];
  let release = () => {};
  const released = new Promise<void>((resolve) => (release = resolve));
  const hook = async (payment: PaymentView) => {
    if (payment.state !== 'finished') return;
    calls.push(payment);
    running++;
    mostAtOnce = Math.max(mostAtOnce, running);
    try {
      await released;
    } finally {
      running--;
    }
  };
  return { hook, calls, release, mostAtOnce: () => mostAtOnce };
}

describe('a hook slower than its lease', () => {
  it('is never called twice at once for one payment and state while sweeps run, and once in all', async () => {
    const slow = slowHook();
    const t = setup({ onPaymentUpdate: slow.hook, reconcileEveryMs: 0, timeouts: { hookLeaseMs: LEASE_MS } });
    const { body } = await t.create('A-1');
    t.service.set(body.payment.id, { state: 'finished', status: true });
    const notice = { ...t.service.payments.get(body.payment.id)!, state: 'finished', status: true };
    const delivering = t.callback(notice); // answers once the hook has returned
    await until(() => slow.calls.length === 1, 'the hook to be called');
    for (let step = 0; step < 15; step++) {
      await t.clock.advance(LEASE_MS / 2.5); // six leases in all
      await t.proxy.reconcile();
    }
    expect([slow.calls.length, slow.mostAtOnce()]).toEqual([1, 1]);
    slow.release();
    expect((await delivering).status).toBe(200);
    await t.clock.advance(10 * LEASE_MS);
    await t.proxy.reconcile();
    expect(slow.calls).toHaveLength(1);
  });

  it('leaves its process idle while it runs: a drain meanwhile does not ask for due announcements over and over', async () => {
    const slow = slowHook();
    const t = setup({ onPaymentUpdate: slow.hook, reconcileEveryMs: 0, timeouts: { hookLeaseMs: LEASE_MS } });
    const { body } = await t.create('A-1');
    t.service.set(body.payment.id, { state: 'finished', status: true });
    const delivering = t.callback({ ...t.service.payments.get(body.payment.id)!, state: 'finished', status: true });
    await until(() => slow.calls.length === 1, 'the hook to be called');
    let asked = 0;
    const due = t.store.dueAnnouncements.bind(t.store);
    t.store.dueAnnouncements = (now, limit) => {
      asked++;
      return due(now, limit);
    };
    await t.proxy.reconcile(); // its drain finds the running announcement held
    await t.clock.advance(LEASE_MS / 4); // within the lease, before any renewal
    expect(asked).toBeLessThanOrEqual(4);
    slow.release();
    expect((await delivering).status).toBe(200);
    expect(slow.calls).toHaveLength(1);
  });

  it('whose process died: its lease lapses and another instance announces the state', async () => {
    const shared = new ManualClock();
    const store = new MemoryStore({ clock: shared });
    const dead = slowHook();
    // The first instance's own clock never moves again: like a crashed process, it renews nothing.
    const first = setup({
      store,
      clock: new ManualClock(shared.now()),
      onPaymentUpdate: dead.hook,
      reconcileEveryMs: 0,
      timeouts: { hookLeaseMs: LEASE_MS },
    });
    const announced: PaymentView[] = [];
    const second = setup({
      store,
      clock: shared,
      fetch: first.service.fetch,
      onPaymentUpdate: (payment) => {
        if (payment.state === 'finished') announced.push(payment);
      },
      reconcileEveryMs: 0,
      timeouts: { hookLeaseMs: LEASE_MS },
    });
    const { body } = await first.create('A-1');
    first.service.set(body.payment.id, { state: 'finished', status: true });
    void first.callback({ ...first.service.payments.get(body.payment.id)!, state: 'finished', status: true });
    await until(() => dead.calls.length === 1, 'the first hook call');
    await shared.advance(LEASE_MS / 2);
    await second.proxy.reconcile();
    expect(announced).toHaveLength(0); // still held
    await shared.advance(LEASE_MS);
    await second.proxy.reconcile();
    expect(announced.map((p) => [p.id, p.outcome])).toEqual([[body.payment.id, 'paid']]);
    dead.release();
  });
});

describe('a slow hook with announceInBackground (a long-lived server, as the standalone one)', () => {
  it('leaves the callback answered at once, the hook running on, and close() waiting until it has returned', async () => {
    const slow = slowHook();
    const t = setup({ onPaymentUpdate: slow.hook, reconcileEveryMs: 0, announceInBackground: true });
    const { body } = await t.create('A-1');
    t.service.set(body.payment.id, { state: 'finished', status: true });
    const notice = { ...t.service.payments.get(body.payment.id)!, state: 'finished', status: true };
    expect((await t.callback(notice)).status).toBe(200);
    await until(() => slow.calls.length === 1, 'the hook to be called');
    let closed = false;
    const closing = t.proxy.close().then(() => (closed = true));
    for (let turn = 0; turn < 20; turn++) await new Promise((resolve) => setTimeout(resolve, 0));
    expect(closed).toBe(false);
    slow.release();
    await closing;
    expect(await t.store.wasAnnounced(body.payment.id, 'finished')).toBe(true);
  });
});
