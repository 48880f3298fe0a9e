import { describe, expect, it } from 'vitest';
import { ORIGIN, setup } from '../harness.js';

const errorCode = async (response: Response) => ((await response.json()) as { error: { code: string; message: string } }).error.code;

describe('what the proxy refuses', () => {
  it('answers 404 JSON outside its prefix, and matches() tells the shop which requests are its own', async () => {
    const t = setup();
    const outside = new Request(`${ORIGIN}/cart`, { method: 'POST' });
    const response = await t.proxy(outside);
    expect(response.status).toBe(404);
    expect(await errorCode(response)).toBe('not_found');
    expect(t.proxy.matches(outside)).toBe(false);
    expect(t.proxy.matches(new Request(`${ORIGIN}/payin/status`))).toBe(true);
    expect(t.proxy.matches(new Request(`${ORIGIN}/payinx/status`))).toBe(false);
    expect((await t.proxy(new Request(`${ORIGIN}/payin/nothing`))).status).toBe(404);
  });

  it('answers 405 with Allow for a wrong method', async () => {
    const t = setup();
    const get = await t.proxy(new Request(`${ORIGIN}/payin/payments`));
    expect(get.status).toBe(405);
    expect(get.headers.get('allow')).toBe('POST');
    const post = await t.post('/events', {});
    expect(post.status).toBe(405);
    expect(post.headers.get('allow')).toBe('GET');
    expect(await errorCode(post)).toBe('method_not_allowed');
  });

  it('answers 415 to a body that is not declared as JSON', async () => {
    const t = setup();
    const form = await t.proxy(
      new Request(`${ORIGIN}/payin/payments`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: 'orderId=A-1&method=upi',
      }),
    );
    expect(form.status).toBe(415);
    expect(await errorCode(form)).toBe('unsupported_media_type');
    expect(t.service.sent).toHaveLength(0);
  });

  it('answers 413 to a body over 16 KiB, declared or streamed', async () => {
    const t = setup();
    const big = JSON.stringify({ orderId: 'A'.repeat(17 * 1024), method: 'upi' });
    expect((await t.post('/payments', big)).status).toBe(413);
    const stream = new ReadableStream<Uint8Array>({
      start(controller) {
        for (let i = 0; i < 20; i++) controller.enqueue(new TextEncoder().encode(' '.repeat(1024)));
        controller.close();
      },
    });
    const streamed = await t.proxy(
      new Request(`${ORIGIN}/payin/status`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: stream,
        duplex: 'half',
      } as RequestInit),
    );
    expect(streamed.status).toBe(413);
    expect(await errorCode(streamed)).toBe('payload_too_large');
  });

  it('answers 400 to malformed JSON and to a body that is not an object', async () => {
    const t = setup();
    expect((await t.post('/payments', '{"orderId":')).status).toBe(400);
    expect((await t.post('/payments', '["A-1","upi"]')).status).toBe(400);
    expect((await t.post('/payments', { orderId: 42, method: 'upi' })).status).toBe(400);
  });

  it('limits creates per client per minute with 429 and Retry-After, counting clients apart', async () => {
    const t = setup({ limits: { createsPerMinute: 3 }, clientId: (r) => r.headers.get('x-client') ?? 'a' });
    for (let i = 0; i < 3; i++) expect((await t.post('/payments', { orderId: `O-${i}`, method: 'upi' })).status).toBe(201);
    const limited = await t.post('/payments', { orderId: 'O-9', method: 'upi' });
    expect(limited.status).toBe(429);
    expect(await errorCode(limited)).toBe('rate_limited');
    const retryAfter = Number(limited.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(60);
    expect((await t.post('/payments', { orderId: 'O-9', method: 'upi' }, { 'x-client': 'b' })).status).toBe(201);
    await t.clock.advance(retryAfter * 1000);
    expect((await t.post('/payments', { orderId: 'O-10', method: 'upi' })).status).toBe(201);
  });

  it('limits status calls per client per minute with 429', async () => {
    const t = setup({ limits: { statusPerMinute: 2 } });
    const { body } = await t.create();
    expect((await t.status(body.payment.id, body.token)).response.status).toBe(200);
    expect((await t.status(body.payment.id, body.token)).response.status).toBe(200);
    const limited = await t.status(body.payment.id, body.token);
    expect(limited.response.status).toBe(429);
    expect(limited.response.headers.get('retry-after')).not.toBeNull();
  });

  it('serves an allowed origin with exact CORS headers and Vary: Origin, and gives others no CORS headers', async () => {
    const t = setup({ allowedOrigins: ['https://shop.example'] });
    const allowed = await t.post('/payments', { orderId: 'A-1', method: 'upi' }, { origin: 'https://shop.example' });
    expect(allowed.headers.get('access-control-allow-origin')).toBe('https://shop.example');
    expect(allowed.headers.get('vary')).toMatch(/origin/i);
    const other = await t.post('/payments', { orderId: 'A-1', method: 'upi' }, { origin: 'https://shop.example.evil.test' });
    expect(other.headers.get('access-control-allow-origin')).toBeNull();
    expect(other.headers.get('vary')).toMatch(/origin/i);
    const sameOrigin = await t.post('/payments', { orderId: 'A-1', method: 'upi' });
    expect(sameOrigin.headers.get('access-control-allow-origin')).toBeNull();
  });

  it('answers a preflight only for an allowed origin', async () => {
    const t = setup({ allowedOrigins: ['https://shop.example'] });
    const preflight = (origin: string) =>
      t.proxy(
        new Request(`${ORIGIN}/payin/payments`, {
          method: 'OPTIONS',
          headers: { origin, 'access-control-request-method': 'POST', 'access-control-request-headers': 'content-type' },
        }),
      );
    const ok = await preflight('https://shop.example');
    expect(ok.status).toBe(204);
    expect(ok.headers.get('access-control-allow-origin')).toBe('https://shop.example');
    expect(ok.headers.get('access-control-allow-methods')).toBe('POST');
    expect(ok.headers.get('access-control-allow-headers')).toMatch(/content-type/);
    const refused = await preflight('https://evil.test');
    expect(refused.headers.get('access-control-allow-origin')).toBeNull();
    expect(refused.headers.get('access-control-allow-methods')).toBeNull();
  });

  it('gives no CORS headers on the callback route, even for an allowed origin', async () => {
    const t = setup({ allowedOrigins: ['https://shop.example'] });
    const response = await t.post('/callback', { id: 'x', state: 'pending' }, { origin: 'https://shop.example' });
    expect(response.status).toBe(401);
    expect(response.headers.get('access-control-allow-origin')).toBeNull();
  });

  it('answers errors as {error: {code, message}} without stacks', async () => {
    const t = setup({
      resolveOrder: () => {
        throw new Error('database at 10.0.0.5 refused');
      },
    });
    const response = await t.post('/payments', { orderId: 'A-1', method: 'upi' });
    expect(response.status).toBe(500);
    const text = await response.text();
    expect(JSON.parse(text)).toEqual({ error: { code: 'internal', message: 'internal error' } });
    expect(text).not.toContain('10.0.0.5');
  });
});
