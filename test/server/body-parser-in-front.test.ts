/**
 * A body parser mounted in front of the proxy (express.json(), the commonest mistake) reads the bytes the
 * signatures need. The shop must hear what to fix, in the answer and in its log, instead of a bare 500.
 */
import express from 'express';
import type { Server } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { createPayinProxy } from '../../src/proxy/index.js';
import { toNodeListener } from '../../src/server/node-listener.js';

let server: Server | undefined;
afterEach(() => new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve())));

describe('a body parser in front of the proxy', () => {
  it('gets an answer and a log line that name the fix, for the browser routes and the callback', async () => {
    const lines: string[] = [];
    const log = (message: string) => lines.push(message);
    const proxy = createPayinProxy({
      provider: { baseUrl: 'http://127.0.0.1:9', merchantId: 'm', token: 't', secret: 's' },
      callbackUrl: 'http://127.0.0.1:9/payin/callback',
      resolveOrder: () => ({ amount: '1.00', currency: 'INR' }),
      logger: { info: log, warn: log, error: log },
      reconcileEveryMs: 0,
      env: {},
    });
    const app = express();
    app.use(express.json());
    app.use(toNodeListener(proxy));
    server = await new Promise<Server>((resolve) => {
      const s = app.listen(0, '127.0.0.1', () => resolve(s));
    });
    const { port } = server.address() as { port: number };
    for (const path of ['/payin/payments', '/payin/callback']) {
      const answer = await fetch(`http://127.0.0.1:${port}${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ orderId: 'A-1', method: 'upi' }),
      });
      expect(answer.status).toBe(500);
      expect(((await answer.json()) as { error: { message: string } }).error.message).toMatch(
        /mount the proxy before any body parser \(express\.json\(\)/,
      );
    }
    // Said once: the same words again within a minute are counted, and the count is said as the proxy closes
    // (folded-repeats.ts), so a shop taking many payments this way gets a line a minute, not one a request.
    expect(lines.filter((l) => l.includes('express.json()'))).toHaveLength(1);
    await proxy.close();
    expect(lines.filter((l) => l.includes('express.json()'))).toHaveLength(2);
  });
});
