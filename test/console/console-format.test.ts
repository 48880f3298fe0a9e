/**
 * The console writes times in the operator's time zone, and says which: an operator in Europe sees the night the
 * clocks go back, when one local hour happens twice, and the CSV export is in UTC. Node takes the zone from TZ, set
 * here as a browser's would be.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { formatTime } from '../../src/console/console-format.js';

const zoneBefore = process.env.TZ;
afterEach(() => {
  process.env.TZ = zoneBefore;
});

describe("the console's times", () => {
  it('tells apart the two passes of the hour the clocks go back in Europe', () => {
    process.env.TZ = 'Europe/Berlin';
    // 02:45 summer time, then an hour later 02:45 winter time.
    const first = formatTime('2024-10-27T00:45:00.000Z', 'en');
    const second = formatTime('2024-10-27T01:45:00.000Z', 'en');
    expect(first).not.toBe(second);
    expect(first).toContain('GMT+2');
    expect(second).toContain('GMT+1');
  });

  for (const [zone, offset] of [
    ['Europe/Moscow', 'GMT+3'],
    ['Asia/Kolkata', 'GMT+5:30'],
  ] as const) {
    it(`names the offset of a zone without summer time (${zone}), as the CSV's UTC times need`, () => {
      process.env.TZ = zone;
      expect(formatTime(Date.UTC(2024, 9, 27, 0, 45), 'en')).toContain(offset);
      expect(formatTime(Date.UTC(2024, 9, 27, 0, 45), 'ru')).toContain(offset);
    });
  }
});
