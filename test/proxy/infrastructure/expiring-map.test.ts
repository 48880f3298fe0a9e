import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../../src/shared/manual-clock.js';
import { ExpiringMap } from '../../../src/proxy/infrastructure/expiring-map.js';

describe('ExpiringMap', () => {
  it('lets the entry written longest ago go first, however often the newest one is written again', () => {
    const map = new ExpiringMap<number>(new ManualClock(), 2);
    map.set('a', 1, 1_000);
    map.set('b', 1, 1_000);
    map.set('a', 2, 1_000); // a is young again
    map.set('c', 1, 1_000);
    expect([map.get('a'), map.get('b'), map.get('c')]).toEqual([2, undefined, 1]);
    map.set('c', 2, 1_000);
    map.set('c', 3, 1_000); // the newest, written in place
    map.set('d', 1, 1_000);
    expect([map.get('a'), map.get('c'), map.get('d')]).toEqual([undefined, 3, 1]);
    expect(map.size).toBe(2);
  });

  it('forgets an entry once its time to live has passed, counted from its last write', async () => {
    const clock = new ManualClock();
    const map = new ExpiringMap<number>(clock, 10);
    map.set('a', 1, 1_000);
    await clock.advance(600);
    map.set('a', 2, 1_000); // the newest: its time to live starts again
    await clock.advance(600);
    expect(map.get('a')).toBe(2);
    await clock.advance(400);
    expect(map.get('a')).toBeUndefined();
    map.set('a', 3, 1_000); // expired and gone: written anew
    expect(map.get('a')).toBe(3);
    map.delete('a');
    map.set('a', 4, 1_000);
    expect([map.get('a'), map.size]).toEqual([4, 1]);
  });
});
