import { describe, expect, it } from 'vitest';
import { BodyTooLargeError, isJsonRequest, parseJsonBytes, readBody } from '../../src/shared/body.js';

const post = (body: BodyInit, headers: Record<string, string> = {}) =>
  new Request('http://localhost/x', { method: 'POST', body, headers, duplex: 'half' } as RequestInit);

describe('readBody', () => {
  it('returns the exact bytes under the limit', async () => {
    expect(new TextDecoder().decode(await readBody(post('{"a": 1}'), 100))).toBe('{"a": 1}');
  });

  it('refuses a declared length over the limit before reading', async () => {
    await expect(readBody(post('x'.repeat(10), { 'content-length': '1000' }), 100)).rejects.toBeInstanceOf(BodyTooLargeError);
  });

  it('refuses a streamed body that grows past the limit without a length', async () => {
    const stream = new ReadableStream<Uint8Array>({
      pull(controller) {
        controller.enqueue(new Uint8Array(64));
      },
    });
    const error = await readBody(post(stream), 1000).catch((e) => e);
    expect(error).toBeInstanceOf(BodyTooLargeError);
    expect(error.status).toBe(413);
  });

  it('reads an absent body as empty', async () => {
    expect((await readBody(new Request('http://localhost/'), 10)).length).toBe(0);
  });
});

describe('JSON helpers', () => {
  it('recognise JSON content types with parameters and suffixes only', () => {
    expect(isJsonRequest(post('', { 'content-type': 'application/json; charset=utf-8' }))).toBe(true);
    expect(isJsonRequest(post('', { 'content-type': 'application/merge-patch+json' }))).toBe(true);
    expect(isJsonRequest(post('', { 'content-type': 'text/plain' }))).toBe(false);
    expect(isJsonRequest(post('', { 'content-type': 'application/jsonp' }))).toBe(false);
  });

  it('parse valid UTF-8 JSON and refuse anything else', () => {
    expect(parseJsonBytes(new TextEncoder().encode('{"a":[1]}'))).toEqual({ ok: true, value: { a: [1] } });
    expect(parseJsonBytes(new TextEncoder().encode('{a:1}')).ok).toBe(false);
    expect(parseJsonBytes(new Uint8Array([0x7b, 0xff, 0x7d])).ok).toBe(false);
  });
});
