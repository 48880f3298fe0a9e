/**
 * Every route of the proxy and of the sandbox, fed requests of any method, path, headers and body (JSON of any
 * shape and depth, broken UTF-8, lone surrogates, huge strings): never a 5xx, never a hang. The proxy runs on the
 * real sandbox, in process (its fetch is the sandbox's handler), with a hook that does not fail; then the service
 * itself is fuzzed: any answer it gives, signed, is a clear 502 or a right view, never a 500.
 */
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { createPayinProxy } from '../../src/proxy/index.js';
import { silentLogger } from '../../src/proxy/logger.js';
import { createSandbox, DEMO_MERCHANT } from '../../src/sandbox/index.js';
import { signBody } from '../../src/shared/hmac.js';
import { bounded, FUZZ_SEED, fuzzRuns } from './fuzz-settings.js';

const SHOP = 'http://shop.test';
const sandbox = createSandbox({ requisitesDelayMs: 0 });
afterAll(() => sandbox.close());
const viaSandbox = (input: string | URL | Request, init?: RequestInit) => sandbox(new Request(input, init));
const provider = { baseUrl: 'http://sandbox.test', merchantId: DEMO_MERCHANT.id, token: DEMO_MERCHANT.token, secret: DEMO_MERCHANT.secret };

function proxyOver(fetchImpl: typeof fetch) {
  return createPayinProxy({
    provider,
    callbackUrl: `${SHOP}/payin/callback`,
    resolveOrder: (orderId) => (orderId.startsWith('x') ? null : { amount: '499.00', currency: 'INR' }),
    onPaymentUpdate: () => {},
    fetch: fetchImpl,
    logger: silentLogger,
    reconcileEveryMs: 0,
    limits: { createsPerMinute: 1_000_000, statusPerMinute: 1_000_000, streamsPerClient: 1_000_000 },
    timeouts: { statusDeadlineMs: 200, statusMs: 100, createMs: 200 },
    env: {},
  });
}

const text = fc.oneof(
  fc.string(),
  fc.string({ unit: 'binary' }),
  fc.constantFrom(' A-1 ', 'A-\ud800', '\u0000', 'x'.repeat(20_000), '%E0%A4%A', '../..', 'upi', 'sbp'),
);
const jsonish = fc.oneof(
  fc.jsonValue(),
  fc.record({ orderId: text, method: text }, { requiredKeys: [] }),
  fc.record({ paymentId: text, token: text }, { requiredKeys: [] }),
  fc.record({ orderId: text, method: text, amount: fc.jsonValue() }, { requiredKeys: [] }),
  fc.record({ id: text, state: text, status: fc.boolean(), amount: text }, { requiredKeys: [] }),
);
const body = fc.oneof(
  jsonish.map((v) => JSON.stringify(v) ?? ''),
  fc.integer({ min: 1, max: 40_000 }).map((n) => '['.repeat(n) + ']'.repeat(n)),
  fc.uint8Array({ maxLength: 300 }),
  text,
);
const request = (paths: readonly string[], origin: string) =>
  fc
    .record({
      method: fc.constantFrom('GET', 'POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS', 'HEAD'),
      path: fc.oneof(
        fc.constantFrom(...paths),
        text.map((t) => `/payin/${encodeURIComponent(t.replace(/[\ud800-\udfff]/g, '_'))}`),
      ),
      query: fc.oneof(
        fc.constant(''),
        fc.record({ paymentId: text, token: text }).map((q) => `?${new URLSearchParams(q)}`),
      ),
      contentType: fc.constantFrom('application/json', 'text/plain', 'application/json; charset=utf-8', ''),
      signature: fc.oneof(fc.constant(undefined), text, fc.constant('')),
      body,
    })
    .map(({ method, path, query, contentType, signature, body }) => {
      const headers: Record<string, string> = {};
      if (contentType) headers['content-type'] = contentType;
      if (signature !== undefined) headers.signature = signature.replace(/[^\x20-\x7e]/g, '');
      const hasBody = method !== 'GET' && method !== 'HEAD';
      return new Request(`${origin}${path}${query}`, { method, headers, body: hasBody ? body : undefined });
    });

const options = { seed: FUZZ_SEED, numRuns: fuzzRuns(300) };

describe('fuzzed requests', () => {
  it('to every proxy route: never a 5xx, never a hang', async () => {
    const proxy = proxyOver(viaSandbox as typeof fetch);
    const paths = ['/payin/payments', '/payin/status', '/payin/events', '/payin/callback', '/payin', '/payin/sbp-banks'];
    await fc.assert(
      fc.asyncProperty(request(paths, SHOP), async (req) => {
        const response = await bounded(proxy(req), 5_000, `${req.method} ${new URL(req.url).pathname}`);
        await response.body?.cancel();
        expect(response.status, `${req.method} ${req.url}`).toBeLessThan(500);
      }),
      options,
    );
    await proxy.close();
  });

  it("to the sandbox's API and control routes: never a 5xx, never a hang", async () => {
    const paths = ['/api/v2/payments', '/api/v2/status', '/sandbox/payments', '/sandbox/faults', '/sandbox/payments/x/pay', '/'];
    await fc.assert(
      fc.asyncProperty(request(paths, 'http://sandbox.test'), async (req) => {
        const response = await bounded(sandbox(req), 5_000, `${req.method} ${new URL(req.url).pathname}`);
        await response.body?.cancel();
        expect(response.status, `${req.method} ${req.url}`).toBeLessThan(500);
      }),
      options,
    );
  });
});

describe('fuzzed answers of the service', () => {
  it('are a clear 502 or a right view, never a 500, and never paid unless the service said finished', async () => {
    let answer: unknown; // undefined: the sandbox answers
    const service = async (input: string | URL | Request, init?: RequestInit) => {
      const path = new URL(typeof input === 'string' || input instanceof URL ? input : input.url).pathname;
      // Creates and look-ups are the sandbox's; the status answers under test are generated.
      const sent = JSON.parse(new TextDecoder().decode(init?.body as Uint8Array)) as Record<string, unknown>;
      if (path !== '/api/v2/status' || sent.paymentId === undefined || answer === undefined) return viaSandbox(input, init);
      const text = JSON.stringify(answer) ?? 'null';
      return new Response(text, { headers: { 'content-type': 'application/json', signature: await signBody(provider.secret, text) } });
    };
    const proxy = proxyOver(service as typeof fetch);
    let run = 0;
    const createPayment = async () => {
      answer = undefined;
      const created = await proxy(
        new Request(`${SHOP}/payin/payments`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ orderId: `F-${run++}`, method: 'upi' }),
        }),
      );
      expect(created.status, await created.clone().text()).toBe(201);
      return (await created.json()) as { payment: { id: string }; token: string };
    };
    const fields = fc.record(
      {
        id: fc.oneof(fc.constant('<this payment>'), fc.string()),
        orderId: fc.oneof(fc.constant('F-1'), fc.constant('B-9'), fc.jsonValue()),
        state: fc.oneof(fc.constantFrom('pending', 'in_check', 'finished', 'expired', 'weird'), fc.jsonValue()),
        status: fc.jsonValue(),
        amount: fc.oneof(fc.constantFrom('499.00', '1.00', '1e9', '-5'), fc.jsonValue()),
        method: fc.oneof(fc.constant('upi'), fc.integer()),
        created_at: fc.oneof(fc.constantFrom('2026-02-31T25:61:00Z', '2026-01-15 10:00:00.000000'), fc.jsonValue()),
        expired_at: fc.oneof(fc.constant('2036-01-15 10:15:00.000000'), fc.jsonValue()),
        url: fc.oneof(fc.constant('https://pay.test/%E0%A4%A'), fc.jsonValue()),
        requisites: fc.oneof(fc.record({ address: fc.string() }), fc.jsonValue()),
      },
      { requiredKeys: ['id', 'state'] },
    );
    await fc.assert(
      fc.asyncProperty(fc.oneof(fields, fc.array(fields, { maxLength: 3 }), fc.jsonValue()), async (generated) => {
        // Each run follows a fresh open payment, so that every generated answer reaches the ledger.
        const { payment, token } = await createPayment();
        answer = JSON.parse(JSON.stringify(generated ?? null).replaceAll('"<this payment>"', JSON.stringify(payment.id)));
        const response = await bounded(
          proxy(
            new Request(`${SHOP}/payin/status`, {
              method: 'POST',
              headers: { 'content-type': 'application/json' },
              body: JSON.stringify({ paymentId: payment.id, token }),
            }),
          ),
          5_000,
          'a status request',
        );
        expect(response.status).not.toBe(500);
        const json = (await response.json()) as { payment?: { outcome: string; state: string } };
        if (json.payment?.outcome === 'paid') expect(json.payment.state).toBe('finished');
      }),
      { ...options, numRuns: fuzzRuns(200) },
    );
    await proxy.close();
  });
});
