/**
 * A shop's webhook endpoint that is slow to answer (a PHP handler that boots its framework and sends the order's
 * e-mail before it answers, a backend under load, one that hangs) must not slow the checkout. The standalone
 * server is a long-lived process: it hands each new state to its webhook without holding the shopper's create, or
 * the service's callback, until the shop answers; the webhook is still retried until it is taken, and a shutdown
 * still lets it finish.
 */
import { createServer, type ServerResponse } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSandbox, type Sandbox } from '../../src/sandbox/index.js';
import { serve, type RunningServer } from '../../src/server/serve.js';
import { readStandaloneConfig, signOrderToken, startStandalone } from '../../src/standalone/index.js';
import { sandboxMerchant } from './support/sandbox-merchant.js';

const SECRET = `whsec_${Buffer.from('the shop and the proxy share it').toString('base64')}`;
const TOKEN_SECRET = 'order-token-key-of-the-slow-shop';

let sandbox: Sandbox;
let service: RunningServer;
/** Webhooks the shop has not answered yet; once `answering`, it answers each at once. */
const held: { id: string; res: ServerResponse }[] = [];
let answering = false;
const backend = createServer((req, res) => {
  req.resume();
  req.on('end', () => (answering ? res.writeHead(204).end() : held.push({ id: String(req.headers['webhook-id']), res })));
});
let backendUrl = '';
const answerAll = () => {
  answering = true;
  for (const { res } of held.splice(0)) res.writeHead(204).end();
};

beforeAll(async () => {
  sandbox = createSandbox({ requisitesDelayMs: 0 });
  service = await serve(sandbox);
  await new Promise<void>((resolve) => backend.listen(0, '127.0.0.1', () => resolve()));
  backendUrl = `http://127.0.0.1:${(backend.address() as { port: number }).port}`;
});

afterAll(async () => {
  answerAll();
  sandbox.close();
  await service.close();
  backend.closeAllConnections();
  await new Promise((resolve) => backend.close(resolve));
});

/** Resolves with what `work` gave, or with 'still waiting' once `ms` have passed. */
function within<T>(work: Promise<T>, ms: number): Promise<T | 'still waiting'> {
  let timer: NodeJS.Timeout | undefined;
  const bound = new Promise<'still waiting'>((resolve) => (timer = setTimeout(() => resolve('still waiting'), ms)));
  return Promise.race([work, bound]).finally(() => clearTimeout(timer));
}

async function until(condition: () => boolean, what: string, ms = 5_000): Promise<void> {
  const end = Date.now() + ms;
  while (!condition()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

describe('a shop whose webhook endpoint is slow to answer', () => {
  it("does not hold the shopper's create until the shop answers the webhook, which is still delivered", async () => {
    const log: string[] = [];
    const server = await startStandalone(
      readStandaloneConfig({
        ...sandboxMerchant(service.url),
        PAYIN_ORDER_TOKEN_SECRET: TOKEN_SECRET,
        PAYIN_WEBHOOK_URL: `${backendUrl}/webhook`,
        PAYIN_WEBHOOK_SECRET: SECRET,
        PAYIN_STORE_URL: 'memory:',
        PORT: '0',
      }),
      { log: (line) => log.push(line), reconcileEveryMs: 0, storeCheckEveryMs: 0 },
    );
    const orderToken = await signOrderToken(TOKEN_SECRET, {
      orderId: 'SLOW-1',
      amount: '499.00',
      currency: 'INR',
      exp: Math.floor(Date.now() / 1000) + 600,
    });
    const create = fetch(`${server.url}/payin/payments`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ orderId: 'SLOW-1', method: 'upi', orderToken }),
    });
    // The shop holds the webhook unanswered for as long as this test lets it: the create answered only once the shop
    // did (up to the webhook's 10 s limit), so every shopper's QR waited on the shop's webhook endpoint.
    const answer = await within(create, 3_000);
    expect(answer === 'still waiting' ? answer : answer.status).toBe(201);
    await until(() => held.length > 0, 'the first webhook at the shop');
    // Its first state, or the next one too (or alone, when it overtook the first before the shop was told).
    for (const { id } of held) expect(id).toMatch(/^msg_.+_(created|pending)$/);
    // The shop answers at last; shutting down lets that webhook finish, and nothing failed on the way.
    answerAll();
    await server.close();
    expect(log.filter((line) => /failed|unanswered|retries/.test(line))).toEqual([]);
  });
});
