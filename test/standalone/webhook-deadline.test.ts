/**
 * A program that embeds the standalone server may set the proxy's deadline for a hook (`timeouts.hookMs`) below the
 * webhook's own 10 s. Past that deadline the proxy has given up on the webhook and will send it again, so its
 * request must end then: left open until its own 10 s, it ran beside the retry and held a connection of the shop's
 * backend for nothing. Real HTTP over loopback, to a backend that takes the webhook and never answers.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSandbox, type Sandbox } from '../../src/sandbox/index.js';
import { serve, type RunningServer } from '../../src/server/serve.js';
import { systemClock, within } from '../../src/shared/clock.js';
import { readStandaloneConfig, signOrderToken, startStandalone } from '../../src/standalone/index.js';
import { until } from '../proxy/harness.js';
import { startQuietBackend, type QuietBackend } from '../support/quiet-backend.js';
import { sandboxMerchant } from './support/sandbox-merchant.js';

const SECRET = `whsec_${Buffer.from('the shop and the proxy share it').toString('base64')}`;
const TOKEN_SECRET = 'order-token-key-of-the-quiet-shop';
const HOOK_MS = 500;
/** Well under the webhook's own 10 s limit, and far past HOOK_MS. */
const WAIT_MS = 5_000;

let sandbox: Sandbox;
let service: RunningServer;
let backend: QuietBackend;

beforeAll(async () => {
  sandbox = createSandbox({ requisitesDelayMs: 0 });
  service = await serve(sandbox);
  backend = await startQuietBackend();
});

afterAll(async () => {
  await backend.close();
  sandbox.close();
  await service.close();
});

describe("a webhook whose backend never answers, under a hook deadline shorter than the webhook's 10 s", () => {
  it('has its request ended at the deadline, and the log says why', async () => {
    const log: string[] = [];
    const server = await startStandalone(
      readStandaloneConfig({
        ...sandboxMerchant(service.url),
        PAYIN_ORDER_TOKEN_SECRET: TOKEN_SECRET,
        PAYIN_WEBHOOK_URL: `${backend.url}/webhook`,
        PAYIN_WEBHOOK_SECRET: SECRET,
        PAYIN_STORE_URL: 'memory:',
        PORT: '0',
      }),
      { log: (line) => log.push(line), reconcileEveryMs: 0, storeCheckEveryMs: 0, timeouts: { hookMs: HOOK_MS } },
    );
    try {
      const orderToken = await signOrderToken(TOKEN_SECRET, {
        orderId: 'QUIET-1',
        amount: '499.00',
        currency: 'INR',
        exp: Math.floor(Date.now() / 1000) + 600,
      });
      const create = await fetch(`${server.url}/payin/payments`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ orderId: 'QUIET-1', method: 'upi', orderToken }),
      });
      expect(create.status).toBe(201);
      await until(() => backend.requests.length > 0, 'the first webhook at the backend');
      const [first] = backend.requests;
      const ended = await within(systemClock, first!.closed, WAIT_MS);
      expect(ended ? `ended after ${first!.closedAt! - first!.at} ms` : `still open after ${WAIT_MS} ms`).toMatch(/^ended after/);
      expect(first!.closedAt! - first!.at).toBeLessThan(WAIT_MS);
      await until(() => log.some((line) => line.includes("before the proxy's deadline")), 'the log line of the ended webhook');
      expect(log.join('\n')).toMatch(
        /webhook msg_\S+ failed \(no answer from http:\/\/127\.0\.0\.1:\d+ before the proxy's deadline: onPaymentUpdate did not return within 500 ms/,
      );
    } finally {
      await server.close();
    }
  });
});
