import { describe, expect, it } from 'vitest';
import { formatServiceMicros, formatServiceTimestamp, parseTimestamp, toIso } from '../../src/shared/timestamps.js';

describe('timestamps', () => {
  it("parse the service's microsecond timestamps", () => {
    expect(parseTimestamp('2024-07-26T10:15:30.123456Z')).toBe(Date.UTC(2024, 6, 26, 10, 15, 30, 123));
  });

  it('tolerate no fraction, a space, no zone, an offset and Unix seconds', () => {
    const t = Date.UTC(2024, 6, 26, 10, 15, 30);
    expect(parseTimestamp('2024-07-26T10:15:30Z')).toBe(t);
    expect(parseTimestamp('2024-07-26 10:15:30')).toBe(t);
    expect(parseTimestamp('2024-07-26T13:15:30+03:00')).toBe(t);
    expect(parseTimestamp('2024-07-26T05:15:30-0500')).toBe(t);
    expect(parseTimestamp(t / 1000)).toBe(t);
  });

  it('refuse what is not a timestamp', () => {
    for (const bad of ['yesterday', '2024-07-26', '', 0, -5, null, {}]) expect(parseTimestamp(bad)).toBeUndefined();
  });

  it("write the service's own shape and read it back", () => {
    const t = Date.UTC(2026, 0, 15, 10, 0, 0, 42);
    expect(formatServiceTimestamp(t)).toBe('2026-01-15T10:00:00.042000Z');
    expect(parseTimestamp(formatServiceTimestamp(t))).toBe(t);
    expect(toIso(t)).toBe('2026-01-15T10:00:00.042Z');
    expect(formatServiceMicros(t * 1000 + 7)).toBe('2026-01-15T10:00:00.042007Z');
  });

  it('write each time as its own, whatever was written just before', () => {
    const times = [0, 1, 1, 0, Date.UTC(2026, 0, 15), 1, Date.UTC(2026, 0, 15)];
    for (const t of times) expect(toIso(t)).toBe(new Date(t).toISOString());
  });
});
