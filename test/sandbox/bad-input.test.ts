import { describe, expect, it } from 'vitest';
import { signBody } from '../../src/shared/hmac.js';
import { DEMO_MERCHANT } from '../../src/sandbox/index.js';
import { BASE, control, createBody, createPayment, readRefusal, readRefused, readSigned, setup, signedRequest } from './helpers.js';

describe('bad input', () => {
  it('refuses a signed body that is not JSON with code 400', async () => {
    const { sandbox } = setup();
    for (const text of ['{"amount": ', 'not json', '']) {
      const response = await sandbox(await signedRequest('/api/v2/payments', text));
      expect((await readRefused(response, 400)).message, text).toMatch(/not valid UTF-8 JSON/);
    }
  });

  it('answers a refusal of what a signed request asks with HTTP 200 and status false, as the service may', async () => {
    const { sandbox } = setup();
    const refused = [
      await sandbox(await signedRequest('/api/v2/payments', createBody({ amount: '0.00' }))),
      await sandbox(await signedRequest('/api/v2/payments', '{"amount": ')),
      await sandbox(await signedRequest('/api/v2/status', { merchantId: DEMO_MERCHANT.id, paymentId: '66a3942dc1d4f' })),
    ];
    expect(refused.map((r) => r.status)).toEqual([200, 200, 200]);
    const bodies = await Promise.all(refused.map((r) => readSigned(r)));
    expect(bodies.map((b) => [b.status, b.code])).toEqual([
      [false, 400],
      [false, 400],
      [false, 404],
    ]);
    expect(sandbox.payments()).toEqual([]);
  });

  it('refuses invalid UTF-8 with code 400', async () => {
    const { sandbox } = setup();
    const bytes = new Uint8Array([0x7b, 0x22, 0xff, 0x22, 0x7d]);
    const headers = {
      'content-type': 'application/json',
      authorization: `Bearer ${DEMO_MERCHANT.token}`,
      signature: await signBody(DEMO_MERCHANT.secret, bytes),
    };
    const response = await sandbox(new Request(`${BASE}/api/v2/status`, { method: 'POST', headers, body: bytes.slice().buffer }));
    await readRefused(response, 400);
  });

  it('answers a wrong content type with 415', async () => {
    const { sandbox } = setup();
    for (const contentType of ['text/plain', 'application/x-www-form-urlencoded', null]) {
      const response = await sandbox(await signedRequest('/api/v2/payments', createBody(), { contentType }));
      expect(response.status, String(contentType)).toBe(415);
      expect((await readSigned(response)).message).toMatch(/Content-Type must be application\/json/);
    }
  });

  it('answers bodies over 64 KiB with 413, whether declared or streamed', async () => {
    const { sandbox } = setup();
    const big = JSON.stringify(createBody({ orderId: 'x'.repeat(70 * 1024) }));
    const response = await sandbox(await signedRequest('/api/v2/payments', big));
    expect(response.status).toBe(413);
    expect((await readRefusal(response)).message).toMatch(/64 KiB/);
    let chunks = 0;
    const stream = new ReadableStream<Uint8Array>({
      pull(c) {
        if (chunks++ > 100) c.close();
        else c.enqueue(new Uint8Array(4096).fill(0x20));
      },
    });
    const streamed = await sandbox(
      new Request(`${BASE}/sandbox/faults`, {
        method: 'PUT',
        headers: { 'content-type': 'application/json' },
        body: stream,
        duplex: 'half',
      } as RequestInit),
    );
    expect(streamed.status).toBe(413);
    expect(chunks).toBeLessThan(30);
  });

  it('answers wrong methods with 405 and Allow', async () => {
    const { sandbox } = setup();
    const cases: [string, string, string][] = [
      ['GET', '/api/v2/payments', 'POST'],
      ['PUT', '/api/v2/status', 'POST'],
      ['POST', '/sandbox/payments', 'GET'],
      ['DELETE', '/sandbox/faults', 'GET, PUT'],
      ['POST', '/', 'GET, HEAD'],
    ];
    for (const [method, path, allow] of cases) {
      const response = await sandbox(new Request(`${BASE}${path}`, { method }));
      expect(response.status, `${method} ${path}`).toBe(405);
      expect(response.headers.get('allow')).toBe(allow);
      expect((await readRefusal(response)).code).toBe(405);
    }
    const id = await createPayment(sandbox);
    const get = await sandbox(control(`/sandbox/payments/${id}/pay`));
    expect(get.status).toBe(405);
    expect(get.headers.get('allow')).toBe('POST');
  });

  it('answers unknown paths, payments and actions with 404 or 400', async () => {
    const { sandbox } = setup();
    for (const path of ['/api/v2/payouts', '/api', '/sandbox/nope', '/favicon.ico', '/pay/66a3942dc1d4f', '/pay/../etc']) {
      const response = await sandbox(control(path));
      expect(response.status, path).toBe(404);
      const body = await readRefusal(response);
      expect(body.code).toBe(404);
    }
    expect((await sandbox(control('/sandbox/payments/66a3942dc1d4f/pay', { method: 'POST' }))).status).toBe(404);
    expect((await sandbox(control('/sandbox/payments/%E0%A4%A/pay', { method: 'POST' }))).status).toBe(404);
    const id = await createPayment(sandbox);
    const unknown = await sandbox(control(`/sandbox/payments/${id}/refund`, { method: 'POST' }));
    expect(unknown.status).toBe(400);
    expect((await readRefusal(unknown)).message).toMatch(/unknown action "refund"; use one of pay, in-check/);
  });

  it('refuses bad bodies on the control routes without touching the payment', async () => {
    const { sandbox, clock } = setup();
    const id = await createPayment(sandbox);
    await clock.advance(1000);
    const post = (body: string, type = 'application/json') =>
      sandbox(control(`/sandbox/payments/${id}/pay`, { method: 'POST', headers: { 'content-type': type }, body }));
    expect((await post('{"amount":')).status).toBe(400);
    expect((await post('[1]')).status).toBe(400);
    expect((await post('{"amount":"1.00"}', 'text/plain')).status).toBe(415);
    const extra = await post('{"amount":"1.00","note":"x"}');
    expect(extra.status).toBe(400);
    expect((await readRefusal(extra)).message).toMatch(/unknown field "note"/);
    expect(sandbox.payment(id)!.state).toBe('pending');
  });

  it('keeps answering after an injected fetch throws synchronously', async () => {
    const errors: unknown[] = [];
    const { sandbox, clock } = setup({
      fetch: () => {
        throw new Error('boom');
      },
      onError: (e) => errors.push(e),
    });
    const id = await createPayment(sandbox);
    await clock.advance(1000);
    await sandbox.idle();
    expect(sandbox.payment(id)!.deliveries[0]).toMatchObject({ ok: false, error: 'boom' });
    expect(errors).toEqual([]);
    expect((await sandbox(control('/sandbox/payments'))).status).toBe(200);
  });
});
