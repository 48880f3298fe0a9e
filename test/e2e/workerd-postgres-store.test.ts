/**
 * What docs/runtimes.md warns of on Cloudflare Workers: the proxy is made once per isolate, and a Postgres store
 * made with it holds connections that workerd lets only the request that opened them use, so a later request's
 * store call fails ("Cannot perform I/O on behalf of a different request") and is answered 503. The worker is the
 * documented one with `createPostgresStore` as its store, bundled as wrangler bundles it and run in workerd
 * through miniflare, against a throwaway PostgreSQL and the sandbox on loopback. Should workerd ever allow it,
 * this fails and the warning goes.
 */
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSandbox, DEMO_MERCHANT, type Sandbox } from '../../src/sandbox/index.js';
import { serve, type RunningServer } from '../../src/server/index.js';
import { usePostgresServer } from '../postgres/postgres-server-harness.js';
import { freePort } from '../support/free-port.js';
import { runWorker, WRANGLER } from './support/worker.js';

const root = fileURLToPath(new URL('../..', import.meta.url));

/** The documented worker, its store the Postgres one, made once per isolate with the proxy. */
const WORKER = `
import { createPayinProxy } from 'payin-checkout/proxy';
import { createPostgresStore } from 'payin-checkout/postgres';
let payin;
const proxyFor = (env) => (payin ??= createPayinProxy({
  provider: { baseUrl: env.PAYIN_BASE_URL, merchantId: env.PAYIN_MERCHANT_ID, token: env.PAYIN_TOKEN, secret: env.PAYIN_SECRET },
  callbackUrl: env.PAYIN_CALLBACK_URL,
  store: createPostgresStore({ url: env.PAYIN_STORE_URL }),
  reconcileEveryMs: 0,
  resolveOrder: async () => ({ amount: '499.00', currency: 'INR' }),
}));
export default { fetch: (request, env) => proxyFor(env)(request, { clientAddress: '127.0.0.1' }) };
`;

describe('the Postgres store on a Cloudflare worker', () => {
  const postgres = usePostgresServer();
  let sandbox: Sandbox;
  let service: RunningServer;
  beforeAll(async () => {
    sandbox = createSandbox({ requisitesDelayMs: 0 });
    service = await serve(sandbox);
  });
  afterAll(async () => {
    sandbox.close();
    await service.close();
  });

  it('made once per isolate, fails the requests after the one that opened its connection', async () => {
    const port = await freePort();
    const worker = await runWorker(
      // postgres.js reaches PostgreSQL through workerd's own sockets, with Node's compatibility modules.
      { stdin: { contents: WORKER, resolveDir: root, loader: 'js' }, external: ['cloudflare:sockets', 'node:*'] },
      {
        port,
        flags: [...(WRANGLER.compatibility_flags ?? []), 'nodejs_compat'],
        bindings: {
          PAYIN_BASE_URL: service.url,
          PAYIN_MERCHANT_ID: DEMO_MERCHANT.id,
          PAYIN_TOKEN: DEMO_MERCHANT.token,
          PAYIN_SECRET: DEMO_MERCHANT.secret,
          PAYIN_CALLBACK_URL: 'http://127.0.0.1:9/payin/callback',
          PAYIN_STORE_URL: postgres.url,
        },
      },
    );
    try {
      const statuses: number[] = [];
      for (let order = 1; order <= 4; order++) {
        const created = await fetch(`http://127.0.0.1:${port}/payin/payments`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ orderId: `W-${order}-${Date.now()}`, method: 'upi' }),
        });
        statuses.push(created.status);
      }
      const output = worker.output();
      expect(statuses[0], output).toBe(201);
      expect(statuses, output).toContain(503);
      expect(output).toContain('Cannot perform I/O on behalf of a different request');
    } finally {
      await worker.stop();
    }
  }, 60_000);
});
