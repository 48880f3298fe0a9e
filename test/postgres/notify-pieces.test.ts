/** The NOTIFY payloads of a long message (src/postgres/notify-pieces.ts), without a database. */
import { describe, expect, it } from 'vitest';
import { notifyPayloads, PayloadReader } from '../../src/postgres/notify-pieces.js';

const bytes = (text: string) => new TextEncoder().encode(text).length;

describe('NOTIFY payloads', () => {
  it('sends a short message whole, as before', () => {
    expect(notifyPayloads('payment:p1', 'one')).toEqual(['["payment:p1","one"]']);
  });

  it('cuts a long message into payloads under 8000 bytes that join back to it, even through a surrogate pair', () => {
    const message = `x${'😀\u0001"ф'.repeat(5_000)}`;
    const payloads = notifyPayloads('payment:p1', message);
    expect(payloads.length).toBeGreaterThan(1);
    for (const payload of payloads) expect(bytes(payload)).toBeLessThan(8000);
    const reader = new PayloadReader();
    const read = payloads.map((payload) => reader.read(payload));
    expect(read.slice(0, -1).every((r) => r === undefined)).toBe(true);
    expect(read.at(-1)).toEqual(['payment:p1', message]);
  });

  it('drops a message whose pieces come out of their place, and reads the next one', () => {
    const reader = new PayloadReader();
    const long = notifyPayloads('payment:p1', 'y'.repeat(20_000));
    expect([long[0], long[2], ...long.slice(3)].map((p) => reader.read(p!)).filter(Boolean)).toEqual([]);
    expect(reader.read('["payment:p1","two"]')).toEqual(['payment:p1', 'two']);
    expect(reader.read('not ours')).toBeUndefined();
    expect(reader.read('["payment:p1","z",0,100000]')).toBeUndefined();
  });
});
