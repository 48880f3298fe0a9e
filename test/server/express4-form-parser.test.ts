/**
 * Express 4's body parsers set `req.body = {}` on every request they pass by, read or not: a shop that parses its
 * own forms (`express.urlencoded()`) in front of the proxy leaves the proxy's JSON bodies unread. The proxy must take
 * them, and still name the fix when a parser did read one (`express.json()` in front). Express 4 as published,
 * against the real sandbox over loopback.
 */
import type { Server } from 'node:http';
import type { Express } from 'express';
import express4 from 'express4';
import { afterEach, describe, expect, it } from 'vitest';
import { createPayinProxy } from '../../src/proxy/index.js';
import { silentLogger } from '../../src/proxy/logger.js';
import { toNodeListener } from '../../src/server/node-listener.js';
import { type RunningServer, serve } from '../../src/server/serve.js';
import { createSandbox } from '../../src/sandbox/index.js';

const express = express4;

let server: Server | undefined;
let sandbox: RunningServer | undefined;
afterEach(async () => {
  await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
  await sandbox?.close();
  server = sandbox = undefined;
});

/** The shop's Express 4 app with `parser` in front of the proxy; its URL. */
async function shopWith(parser: ReturnType<typeof express.json>): Promise<string> {
  sandbox = await serve(createSandbox({ requisitesDelayMs: 0 }));
  const app: Express = express();
  app.use(parser);
  app.use(
    toNodeListener(
      createPayinProxy({
        provider: { baseUrl: sandbox.url, merchantId: 'demo-merchant', token: 'demo-token', secret: 'demo-secret' },
        callbackUrl: 'http://127.0.0.1:9/payin/callback',
        resolveOrder: () => ({ amount: '499.00', currency: 'INR' }),
        logger: silentLogger,
        reconcileEveryMs: 0,
        env: {},
      }),
    ),
  );
  server = await new Promise<Server>((resolve) => {
    const s = app.listen(0, '127.0.0.1', () => resolve(s));
  });
  return `http://127.0.0.1:${(server.address() as { port: number }).port}`;
}

const create = (url: string) =>
  fetch(`${url}/payin/payments`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ orderId: 'E4-1', method: 'upi' }),
  });

describe('the proxy behind Express 4 body parsers', () => {
  it("takes a payment when a form parser for the shop's own pages passed the body by", async () => {
    const answer = await create(await shopWith(express.urlencoded({ extended: false })));
    expect(answer.status).toBe(201);
    expect(((await answer.json()) as { payment: { state: string } }).payment.state).toBeTruthy();
  });

  it('names the fix when express.json() in front read the body', async () => {
    const answer = await create(await shopWith(express.json()));
    expect(answer.status).toBe(500);
    expect(((await answer.json()) as { error: { message: string } }).error.message).toMatch(/mount the proxy before any body parser/);
  });
});
