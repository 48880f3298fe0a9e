import { describe, expect, it } from 'vitest';
import { withHeaders } from '../../../src/proxy/http/cors.js';

describe('withHeaders', () => {
  const answer = (headers: Record<string, string>) => ({ status: 200, headers, body: null });

  it('adds headers, and merges Vary without naming anything twice', () => {
    expect(withHeaders(answer({ 'content-type': 'text/plain' }), { vary: 'Origin' }).headers).toEqual({
      'content-type': 'text/plain',
      vary: 'Origin',
    });
    expect(withHeaders(answer({ vary: 'Accept' }), { vary: 'Origin' }).headers.vary).toBe('Accept, Origin');
    expect(withHeaders(answer({ vary: 'Accept,  origin ' }), { vary: 'Origin' }).headers.vary).toBe('Accept,  origin ');
    expect(withHeaders(answer({ vary: 'Origins' }), { vary: 'Origin' }).headers.vary).toBe('Origins, Origin');
    expect(withHeaders(answer({ a: '1' }), { a: '2', b: '3' }).headers).toEqual({ a: '2', b: '3' });
  });
});
