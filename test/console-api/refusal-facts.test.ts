/**
 * Why a re-check brought no state, as facts beside the English message, over real HTTP (the proxy and the sandbox
 * each on a loopback socket, the sandbox made to fail for real): a page words them in the operator's own language.
 * The payment is created first; the proxy then restarts over the same store, set up the way that fails.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { PayinProxyOptions } from '../../src/proxy/index.js';
import { MemoryStore } from '../../src/proxy/infrastructure/memory-store.js';
import { DEMO_MERCHANT } from '../../src/sandbox/options.js';
import { serve } from '../../src/server/serve.js';
import { freePort } from '../support/free-port.js';
import { type Live, startLive } from '../proxy/sandbox-harness.js';
import { headerAuth, operatorOverHttp } from './console-harness.js';

/** Another merchant of the same service, who never created the payment. */
const OTHER = { id: 'other-merchant', token: 'other-token', secret: 'other-secret' };

const provider = (live: Live, merchant: { id: string; token: string; secret: string }, baseUrl = live.sandboxUrl) => ({
  provider: { baseUrl, merchantId: merchant.id, token: merchant.token, secret: merchant.secret },
});

let live: Live;
beforeEach(async () => {
  // A status deadline shorter than the first backoff: a failed status call is told at once, never retried after a sleep.
  live = await startLive(
    { console: headerAuth, reconcileEveryMs: 0, store: new MemoryStore(), timeouts: { statusDeadlineMs: 100 } },
    { merchants: [DEMO_MERCHANT, OTHER] },
  );
});
afterEach(async () => {
  await live.close();
});

/** Creates a payment, makes the service fail as told (a proxy restarted with other options, sandbox faults), re-checks it. */
async function recheckRefusal(orderId: string, { restartWith, faults }: { restartWith?: Partial<PayinProxyOptions>; faults?: object }) {
  const created = await live.create(orderId, 'upi');
  expect(created.body).toMatchObject({ payment: { id: expect.any(String) } });
  const id = created.body.payment.id as string;
  if (restartWith) await live.restart(restartWith);
  if (faults) {
    const put = await fetch(`${live.sandboxUrl}/sandbox/faults`, {
      method: 'PUT',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(faults),
    });
    expect(put.status).toBe(200);
  }
  const ana = operatorOverHttp(live.proxyUrl, 'ana');
  await ana.signIn();
  const done = await ana.post<{ error: Record<string, unknown> }>(`/api/payments/${id}/recheck`);
  expect(done.answer.status).toBe(502);
  expect(done.body.error).toMatchObject({ code: 'service_unavailable', message: expect.stringMatching(/nothing was changed/) });
  return done.body.error;
}

describe('a re-check the service did not answer names why, as facts', () => {
  it('no_answer: nothing listens at the service address', async () => {
    const closed = `http://127.0.0.1:${await freePort()}`;
    expect(await recheckRefusal('R-1', { restartWith: provider(live, DEMO_MERCHANT, closed) })).toMatchObject({ reason: 'no_answer' });
  });

  it('failed, with the HTTP status: the service answers every call with a 5xx', async () => {
    const error = await recheckRefusal('R-2', { faults: { errorRate: 1 } });
    expect(error).toMatchObject({ reason: 'failed' });
    expect([500, 502, 503, 504]).toContain(error.httpStatus);
    expect(error.message).toContain(`HTTP ${error.httpStatus}`);
  });

  it('malformed: the answer is cut short', async () => {
    expect(await recheckRefusal('R-3', { faults: { malformedRate: 1 } })).toMatchObject({ reason: 'malformed' });
  });

  it("signature: a gateway in front of the service garbles its answers' Signature", async () => {
    const gateway = await serve(async (request) => {
      const url = new URL(request.url);
      const answer = await fetch(`${live.sandboxUrl}${url.pathname}`, {
        method: request.method,
        headers: request.headers,
        body: await request.arrayBuffer(),
      });
      const headers = new Headers(answer.headers);
      headers.set('signature', 'not-the-signature');
      headers.delete('content-length');
      return new Response(await answer.arrayBuffer(), { status: answer.status, headers });
    });
    try {
      expect(await recheckRefusal('R-4', { restartWith: provider(live, DEMO_MERCHANT, gateway.url) })).toMatchObject({
        reason: 'signature',
      });
    } finally {
      await gateway.close();
    }
  });

  it("unknown_payment, with the service's refusal code: another merchant asks about it", async () => {
    const error = await recheckRefusal('R-5', { restartWith: provider(live, OTHER) });
    expect(error).toMatchObject({ reason: 'unknown_payment', refusalCode: 404 });
  });

  it('refused, with the HTTP status: the merchant token is wrong', async () => {
    const error = await recheckRefusal('R-6', { restartWith: provider(live, { ...DEMO_MERCHANT, token: 'not-the-token' }) });
    expect(error).toMatchObject({ reason: 'refused', httpStatus: 401 });
  });
});
