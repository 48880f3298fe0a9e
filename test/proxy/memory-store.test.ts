import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/server/manual-clock.js';
import { MemoryStore } from '../../src/proxy/memory-store.js';
import { describeStoreContract } from './store-contract.js';

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
});
