import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../../src/shared/manual-clock.js';
import { createMemoryStore, MemoryStore } from '../../../src/proxy/infrastructure/memory-store.js';
import { describeStoreContract, record } from './store-contract.js';

describeStoreContract('MemoryStore', (clock) => ({ store: new MemoryStore({ clock }), wait: (ms) => clock.advance(ms) }));

describe('MemoryStore bounds', () => {
  it('drops the oldest payments beyond maxEntries', async () => {
    const store = new MemoryStore({ clock: new ManualClock(), maxEntries: 3 });
    for (let i = 0; i < 5; i++) {
      await store.putOrder({ orderId: `o${i}`, payments: [] });
    }
    expect(await store.getOrder('o0')).toBeUndefined();
    expect(await store.getOrder('o1')).toBeUndefined();
    expect(await store.getOrder('o4')).toBeDefined();
  });

  it('forgets payments after their time to live', async () => {
    const clock = new ManualClock();
    const store = new MemoryStore({ clock, ttlMs: 1_000 });
    await store.putOrder({ orderId: 'o', payments: [] });
    await clock.advance(1_001);
    expect(await store.getOrder('o')).toBeUndefined();
  });

  it('refuses an option it does not know, naming it and those it takes', () => {
    expect(() => createMemoryStore({ maxEntry: 100 } as never)).toThrow(
      /createMemoryStore: options has no maxEntry; it takes .*\bmaxEntries\b/,
    );
  });
});

describe('MemoryStore scratch', () => {
  it('keeps an open payment that reconciliation still follows, however long since its last write', async () => {
    const clock = new ManualClock();
    const store = new MemoryStore({ clock, ttlMs: 60_000 });
    // A payment that may be paid for days (a bank transfer), written once and unchanged since.
    await store.putPayment({ ...record('followed', 1), followUntil: clock.now() + 60 * 60_000 }, 0);
    await store.putPayment(record('abandoned', 1), 0);
    await clock.advance(2 * 60_000);
    expect(await store.getPayment('abandoned')).toBeUndefined();
    expect(await store.getPayment('followed')).toBeDefined();
    expect(await store.followedPayments(10)).toEqual(['followed']);
    // Its time to live runs from the end of its follow window, 60 minutes after the write.
    await clock.advance(58 * 60_000);
    expect(await store.getPayment('followed')).toBeDefined();
    await clock.advance(2 * 60_000);
    expect(await store.getPayment('followed')).toBeUndefined();
  });
});

describe('MemoryStore keeps what must never repeat', () => {
  it('keeps paid orders, final payments and committed announcements past the volume bound and the time to live', async () => {
    const clock = new ManualClock();
    const store = new MemoryStore({ clock, ttlMs: 1_000, maxEntries: 3 });
    await store.putOrder({ orderId: 'paid', payments: [{ id: 'p', method: 'upi' }], paidBy: 'p' });
    await store.putPayment(
      { ...record('p', 1, 'finished'), view: { ...record('p', 1).view, state: 'finished', outcome: 'paid', final: true } },
      0,
    );
    await store.enqueueAnnouncement('p', 'finished', 0);
    await store.commitAnnouncement('p', 'finished');
    for (let i = 0; i < 3_500; i++) {
      await store.putOrder({ orderId: `o${i}`, payments: [] });
      await store.putPayment(record(`x${i}`, 1), 0);
    }
    await clock.advance(24 * 60 * 60_000);
    expect((await store.getOrder('paid'))?.paidBy).toBe('p');
    expect((await store.getPayment('p'))?.view.final).toBe(true);
    expect(await store.enqueueAnnouncement('p', 'finished', 0)).toBe(false);
    expect(await store.getOrder('o0')).toBeUndefined();
  });
});
