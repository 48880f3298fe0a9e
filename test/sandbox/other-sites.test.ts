/**
 * The sandbox's own routes take no credentials (it listens on loopback and holds no real money), but loopback is
 * no wall for the developer's browser: any page it has open may send a POST there without asking (no body, no
 * preflight). Over real HTTP, with the headers a browser sends for such a page and for the sandbox's own pages.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSandbox, type Sandbox } from '../../src/sandbox/index.js';
import { serve, type RunningServer } from '../../src/server/serve.js';
import { createPayment } from './helpers.js';

let sandbox: Sandbox;
let server: RunningServer;
beforeAll(async () => {
  sandbox = createSandbox({ requisitesDelayMs: 0, fetch: async () => new Response('ok') });
  server = await serve(sandbox);
});
afterAll(async () => {
  sandbox.close();
  await server.close();
});

const act = (id: string, action: string, headers: Record<string, string>) =>
  fetch(`${server.url}/sandbox/payments/${id}/${action}`, { method: 'POST', headers }).then((answer) => answer.status);

describe('the sandbox’s payer and fault routes', () => {
  it('refuse a page of another site open in the developer’s browser: the payment stays as it was', async () => {
    const id = await createPayment(sandbox);
    await new Promise((resolve) => setTimeout(resolve, 10)); // the requisites come a timer tick after the create
    expect(await act(id, 'pay', { 'sec-fetch-site': 'cross-site', origin: 'https://evil.example' })).toBe(403);
    expect(await act(id, 'cancel', { 'sec-fetch-site': 'same-site', origin: 'http://other.localhost:5173' })).toBe(403);
    // A browser too old to send Sec-Fetch-Site is judged by its Origin.
    expect(await act(id, 'fail', { origin: 'https://evil.example' })).toBe(403);
    const faults = await fetch(`${server.url}/sandbox/faults`, {
      method: 'PUT',
      headers: { 'content-type': 'application/json', 'sec-fetch-site': 'cross-site', origin: 'https://evil.example' },
      body: JSON.stringify({ errorRate: 1 }),
    });
    expect(faults.status).toBe(403);
    expect(sandbox.payment(id)?.state).toBe('pending');
    expect(sandbox.faults().errorRate).toBe(0);
  });

  it('take the sandbox’s own pages, and tests and scripts, which are no browser page', async () => {
    const paid = await createPayment(sandbox);
    const cancelled = await createPayment(sandbox);
    await new Promise((resolve) => setTimeout(resolve, 10));
    const { host } = new URL(server.url);
    expect(await act(paid, 'pay', { 'sec-fetch-site': 'same-origin', origin: `http://${host}` })).toBe(200);
    expect(await act(cancelled, 'cancel', {})).toBe(200);
    expect(sandbox.payment(paid)?.state).toBe('finished');
    expect(sandbox.payment(cancelled)?.state).toBe('canceled');
  });
});
