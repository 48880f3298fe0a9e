/**
 * What a hostile network or a confused service can send the proxy: answers without a signature, malformed
 * answers, and callbacks built to crash a parser. None of it may show, announce or store anything, and none of it
 * is a 500: a bad answer of the service is a 502 with a clear code, a bad callback a 4xx.
 */
import { describe, expect, it } from 'vitest';
import { signBody } from '../../../src/shared/hmac.js';
import { SECRET } from '../fake-service.js';
import { drive, setup } from '../harness.js';

describe('answers of the service are believed only when signed', () => {
  it('refuses a status answer without a Signature: a rewritten answer can neither mark a payment paid nor swap the payee', async () => {
    const t = setup({ reconcileEveryMs: 0 });
    const { body } = await t.create('A-1');
    const forged = { ...t.service.payments.get(body.payment.id)!, state: 'finished', status: true, requisites: { address: 'thief@bank' } };
    t.service.onStatus = () => ({ body: forged, signature: null });
    await t.clock.advance(5_000);
    const answer = await drive(t.clock, t.status(body.payment.id, body.token), 1_000);
    expect([answer.response.status, answer.body.error?.code]).toEqual([502, 'upstream_error']);
    const stored = (await t.store.getPayment(body.payment.id))!;
    expect([stored.view.state, stored.view.requisites?.address]).toEqual(['pending', 'shop@okbank']);
    expect(t.updates.some((u) => u.payment.outcome === 'paid')).toBe(false);
  });

  it('refuses an unsigned create answer too, and takes answers unsigned only when verifyAnswers is off', async () => {
    const strict = setup();
    strict.service.onCreate = () => undefined;
    const unsigned = (t: ReturnType<typeof setup>) => {
      const original = t.service.fetch;
      return async (input: string | URL | Request, init?: RequestInit) => {
        const response = await original(input, init);
        const headers = new Headers(response.headers);
        headers.delete('signature');
        return new Response(await response.text(), { status: response.status, headers });
      };
    };
    const a = setup({ fetch: unsigned(strict) });
    expect((await drive(a.clock, a.create('A-1'), 1_000)).response.status).toBe(502);
    const b = setup({
      fetch: unsigned(strict),
      provider: { baseUrl: 'http://service.test', merchantId: 'm-1', token: 'bearer-1', secret: 'secret-1', verifyAnswers: false },
    });
    expect((await b.create('A-2')).response.status).toBe(201);
  });
});

describe('malformed service answers are a clear 502, never a 500', () => {
  it.each([
    ['a number for method', { method: 42 }],
    ['an impossible date', { created_at: '2026-02-31T25:61:00Z', expired_at: 'yesterday' }],
    ['a malformed percent-encoding in the hosted page url', { url: 'https://pay.test/%E0%A4%A' }],
    ['the id of this payment under another order', { orderId: 'B-9' }],
  ])('answers 502 for a status answer with %s', async (_, fields) => {
    const t = setup({ reconcileEveryMs: 0 });
    const { body } = await t.create('A-1');
    const base = t.service.payments.get(body.payment.id)!;
    t.service.onStatus = () => ({ body: { ...base, state: 'finished', status: true, ...fields } });
    await t.clock.advance(5_000);
    const answer = await drive(t.clock, t.status(body.payment.id, body.token), 1_000);
    expect(answer.response.status === 502 || answer.body.payment?.state === 'finished').toBe(true);
    expect(answer.response.status).not.toBe(500);
    if ('orderId' in fields) expect(answer.response.status).toBe(502);
  });
});

describe('an answer that never ends', () => {
  it('is read only up to its size cap: a 502, not the whole body held in memory', async () => {
    let endless = false;
    let largestRead = 0;
    const chunk = new Uint8Array(64 * 1024).fill(0x20);
    const t = setup({
      reconcileEveryMs: 0,
      fetch: async (input, init) => {
        if (!endless) return service.fetch(input, init);
        // A broken service (or whatever answers at its address) streaming; bounded at 256 MiB for the test.
        let pulled = 0;
        const body = new ReadableStream<Uint8Array>({
          pull(controller) {
            if (pulled >= 256 * 1024 * 1024) return controller.close();
            pulled += chunk.byteLength;
            largestRead = Math.max(largestRead, pulled);
            controller.enqueue(chunk);
          },
        });
        return new Response(body, { status: 200, headers: { 'content-type': 'application/json', signature: 'x' } });
      },
    });
    const service = t.service;
    const { body } = await t.create('A-1');
    endless = true;
    await t.clock.advance(5_000);
    const answer = await drive(t.clock, t.status(body.payment.id, body.token), 1_000);
    expect([answer.response.status, answer.body.error?.code]).toEqual([502, 'upstream_error']);
    expect(largestRead).toBeLessThanOrEqual(9 * 1024 * 1024); // each attempt (status calls are retried) stops at the cap
  });
});

describe('a signed answer built to hurt', () => {
  it('is a 502 when nested 20,000 arrays deep, as a callback is a 400, never a 500', async () => {
    let deep = false;
    let paymentJson = '';
    const t = setup({
      reconcileEveryMs: 0,
      fetch: async (input, init) => {
        if (!deep) return service.fetch(input, init);
        const text = `${paymentJson.slice(0, -1)},"extra":${'['.repeat(20_000)}${']'.repeat(20_000)}}`;
        return new Response(text, { headers: { 'content-type': 'application/json', signature: await signBody(SECRET, text) } });
      },
    });
    const service = t.service;
    const { body } = await t.create('A-1', 'sbp');
    paymentJson = JSON.stringify(t.service.payments.get(body.payment.id));
    deep = true;
    await t.clock.advance(5_000);
    const answer = await drive(t.clock, t.status(body.payment.id, body.token), 1_000);
    expect([answer.response.status, answer.body.error?.code]).toEqual([502, 'upstream_error']);
  });
});

describe('callbacks built to hurt', () => {
  it('answers 400 to a signed callback nested 30,000 arrays deep, and keeps working', async () => {
    const t = setup({ reconcileEveryMs: 0 });
    const text = `{"id":"x","state":"finished","media":${'['.repeat(30_000)}${']'.repeat(30_000)}}`;
    const response = await t.callback(text, await signBody(SECRET, text));
    expect(response.status).toBe(400);
    const { body } = await t.create('A-1');
    expect(body.payment.state).toBe('pending');
  });
});

describe('a failing fetch', () => {
  it("is a 502 for the browser and its cause in the log line, never swallowed (workerd's Illegal invocation, a DNS failure)", async () => {
    const lines: string[] = [];
    const log = (message: string, fields?: Record<string, unknown>) => lines.push(`${message} ${JSON.stringify(fields ?? {})}`);
    const t = setup({
      logger: { info: log, warn: log, error: log },
      fetch: async () => {
        throw new TypeError('Illegal invocation');
      },
    });
    const { response } = await drive(t.clock, t.create('A-1'), 1_000);
    expect(response.status).toBe(502);
    expect(lines.some((line) => line.includes('Illegal invocation'))).toBe(true);
  });
});
