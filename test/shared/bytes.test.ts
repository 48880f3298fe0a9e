import { describe, expect, it } from 'vitest';
import { base64ToBytes, bytesToBase64, bytesToHex, concatBytes, hexToBytes, randomToken, timingSafeEqual } from '../../src/shared/bytes.js';

describe('byte helpers', () => {
  it('join the chunks of a body in order, whatever their number', () => {
    const text = (bytes: Uint8Array) => new TextDecoder().decode(bytes);
    const enc = (s: string) => new TextEncoder().encode(s);
    expect(text(concatBytes([]))).toBe('');
    expect(text(concatBytes([enc('Иван')]))).toBe('Иван');
    expect(text(concatBytes([enc('{"a":'), enc(''), enc('1}')]))).toBe('{"a":1}');
  });

  it('round-trip hex and base64 for every length up to 40 bytes', () => {
    for (let n = 0; n <= 40; n++) {
      const data = Uint8Array.from({ length: n }, (_, i) => (i * 37 + n) & 255);
      expect(hexToBytes(bytesToHex(data))).toEqual(data);
      expect(bytesToBase64(data)).toBe(Buffer.from(data).toString('base64'));
      expect(base64ToBytes(bytesToBase64(data))).toEqual(data);
    }
  });

  it('refuse text that is not hex or base64', () => {
    expect(hexToBytes('abc')).toBeUndefined();
    expect(hexToBytes('zz')).toBeUndefined();
    expect(base64ToBytes('a*b=')).toBeUndefined();
  });

  it('compare strings by content whatever their lengths', () => {
    expect(timingSafeEqual('token-abc', 'token-abc')).toBe(true);
    expect(timingSafeEqual('token-abc', 'token-abd')).toBe(false);
    expect(timingSafeEqual('token', 'token-abc')).toBe(false);
    expect(timingSafeEqual('', 'a')).toBe(false);
    expect(timingSafeEqual('', '')).toBe(true);
    expect(timingSafeEqual('a', '')).toBe(false);
    expect(timingSafeEqual('token-abc', 'Token-abc')).toBe(false);
    expect(timingSafeEqual('ab', 'abab')).toBe(false);
    expect(timingSafeEqual('\u0000', '')).toBe(false);
    expect(timingSafeEqual('ключ-ё', 'ключ-ё')).toBe(true);
    expect(timingSafeEqual('ключ-ё', 'ключ-е')).toBe(false);
  });

  it('make URL-safe tokens of at least 128 bits that do not repeat', () => {
    const tokens = new Set(Array.from({ length: 200 }, () => randomToken()));
    expect(tokens.size).toBe(200);
    for (const token of tokens) {
      expect(token).toMatch(/^[A-Za-z0-9_-]+$/);
      expect(base64ToBytes(token)!.length).toBeGreaterThanOrEqual(16);
    }
  });
});
