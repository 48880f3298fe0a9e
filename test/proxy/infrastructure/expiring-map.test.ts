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

  it('drops an expired entry before a live one when full, however long ago the live one was written', async () => {
    const clock = new ManualClock();
    const map = new ExpiringMap<number>(clock, 3);
    map.set('session', 1, 12 * 60 * 60_000);
    map.set('minute-1', 1, 60_000);
    map.set('minute-2', 1, 60_000);
    await clock.advance(61_000);
    map.set('minute-3', 1, 60_000);
    map.set('minute-4', 1, 60_000);
    expect([map.get('session'), map.get('minute-3'), map.get('minute-4'), map.size]).toEqual([1, 1, 1, 3]);
    // None expired: the one written longest ago goes, as before.
    map.set('minute-5', 1, 60_000);
    expect([map.get('session'), map.get('minute-5'), map.size]).toEqual([undefined, 1, 3]);
  });

  it('keeps, over any writes, deletes and clock moves, exactly what a plain list of entries would', async () => {
    // A model that scans everything on every write, against the map's heap: 20,000 random steps over 40 keys.
    const clock = new ManualClock();
    const max = 16;
    const map = new ExpiringMap<number>(clock, max);
    let model: { key: string; value: number; expiresAt: number }[] = [];
    let seed = 7;
    const random = (n: number) => {
      seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648;
      return (seed >>> 16) % n;
    };
    for (let step = 0; step < 20_000; step++) {
      const key = `k${random(40)}`;
      const now = clock.now();
      const action = random(10);
      if (action < 6) {
        const ttl = [50, 500, 5_000][random(3)]!;
        map.set(key, step, ttl);
        model = model.filter((e) => e.key !== key);
        model.push({ key, value: step, expiresAt: now + ttl });
        while (model.length > max) {
          const expired = model.reduce((a, b) => (b.expiresAt < a.expiresAt ? b : a));
          const gone = expired.expiresAt <= now ? expired : model[0]!;
          model = model.filter((e) => e !== gone);
        }
      } else if (action < 7) {
        map.delete(key);
        model = model.filter((e) => e.key !== key);
      } else if (action < 9) {
        const entry = model.find((e) => e.key === key);
        const live = entry && entry.expiresAt > now ? entry.value : undefined;
        if (entry && live === undefined) model = model.filter((e) => e !== entry);
        expect(map.get(key)).toBe(live);
      } else {
        await clock.advance(random(200));
      }
      // Which of two expired entries went first is no one's concern; the live ones, and their order, are.
      const live = model.filter((e) => e.expiresAt > clock.now()).map((e) => e.value);
      expect([...map.values()]).toEqual(live);
      expect(map.size).toBeLessThanOrEqual(max);
    }
  });
});
