import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/shared/manual-clock.js';
import { sleep } from '../../src/shared/clock.js';

describe('ManualClock', () => {
  it('fires timers in order of due time, only when advanced past them', async () => {
    const clock = new ManualClock(0);
    const fired: string[] = [];
    clock.setTimeout(() => fired.push('b'), 200);
    clock.setTimeout(() => fired.push('a'), 100);
    await clock.advance(150);
    expect(fired).toEqual(['a']);
    await clock.advance(50);
    expect(fired).toEqual(['a', 'b']);
    expect(clock.now()).toBe(200);
  });

  it('runs timers that timers schedule within the same advance, and cleared ones never', async () => {
    const clock = new ManualClock(0);
    const fired: number[] = [];
    const cleared = clock.setTimeout(() => fired.push(-1), 10);
    clock.clearTimeout(cleared);
    clock.setTimeout(() => clock.setTimeout(() => fired.push(clock.now()), 30), 20);
    await clock.advance(100);
    expect(fired).toEqual([50]);
    expect(clock.pending).toBe(0);
  });

  it('lets awaited sleeps continue in time order', async () => {
    const clock = new ManualClock(0);
    const seen: number[] = [];
    const run = (async () => {
      await sleep(clock, 1000);
      seen.push(clock.now());
      await sleep(clock, 1000);
      seen.push(clock.now());
    })();
    await clock.advance(5000);
    await run;
    expect(seen).toEqual([1000, 2000]);
  });

  it('rejects a sleep when its signal aborts', async () => {
    const clock = new ManualClock(0);
    const controller = new AbortController();
    const slept = sleep(clock, 1000, controller.signal);
    controller.abort(new Error('stop'));
    await expect(slept).rejects.toThrow('stop');
    expect(clock.pending).toBe(0);
  });
});
