/**
 * `app.use('/payin', toNodeListener(payin))` is how Express mounts most middleware, and the mistake
 * docs/runtimes.md warns of: Express removes the mount path from `req.url`, so the proxy sees `/payments`. The
 * shop used to get 404 "not a /payin route" for a POST to /payin/payments, which reads as if the route did not
 * exist; the answer now says what removes the path and where the way to mount it is.
 */
import express from 'express';
import type { Server } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { createPayinProxy } from '../../src/proxy/index.js';
import { toNodeListener } from '../../src/server/node-listener.js';

let server: Server | undefined;
afterEach(() => new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve())));

describe('the proxy mounted under its path by Express', () => {
  it('answers 404 with a message that names the mount and the page to read', async () => {
    const proxy = createPayinProxy({
      provider: { baseUrl: 'http://127.0.0.1:9', merchantId: 'm', token: 't', secret: 's' },
      callbackUrl: 'http://127.0.0.1:9/payin/callback',
      resolveOrder: () => ({ amount: '1.00', currency: 'INR' }),
      reconcileEveryMs: 0,
      env: {},
    });
    const app = express();
    app.use('/payin', toNodeListener(proxy));
    server = await new Promise<Server>((resolve) => {
      const s = app.listen(0, '127.0.0.1', () => resolve(s));
    });
    const { port } = server.address() as { port: number };
    const answer = await fetch(`http://127.0.0.1:${port}/payin/payments`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ orderId: 'A-1', method: 'upi' }),
    });
    expect(answer.status).toBe(404);
    const { error } = (await answer.json()) as { error: { code: string; message: string } };
    expect(error.code).toBe('not_found');
    expect(error.message).toMatch(/^not a \/payin route/);
    expect(error.message).toMatch(/app\.use\('\/payin', \.\.\.\).*docs\/runtimes\.md/);
  });
});
