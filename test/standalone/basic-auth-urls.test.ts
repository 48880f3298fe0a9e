/**
 * A shop whose backend sits behind HTTP basic auth (a staging site, an admin area) writes the user and password into
 * PAYIN_RESOLVE_URL and PAYIN_WEBHOOK_URL, as other webhook senders take them. fetch refuses a URL that carries
 * them, and its error quotes the URL whole: every pricing call failed (each shopper got 502) and every webhook was
 * retried for ever, with the password in each log line. They are sent as the Authorization header instead, and never
 * shown.
 */
import { createServer, type Server } from 'node:http';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSandbox, type Sandbox } from '../../src/sandbox/index.js';
import { serve, type RunningServer } from '../../src/server/serve.js';
import { readStandaloneConfig, startStandalone, type StandaloneServer } from '../../src/standalone/index.js';
import { sandboxMerchant } from './support/sandbox-merchant.js';

const SECRET = `whsec_${Buffer.from('a secret shared with the shop').toString('base64')}`;
// As a shop writes it into a URL: the space and the @ percent-encoded.
const USER = 'shop';
const PASSWORD = 'pa ss@word-7731';
const userInfo = `${USER}:${encodeURIComponent(PASSWORD)}`;

let sandbox: Sandbox;
let service: RunningServer;
let backend: Server;
let backendUrl = '';
let server: StandaloneServer | undefined;
const heard: { path: string; authorized: boolean; verified: boolean }[] = [];

beforeAll(async () => {
  sandbox = createSandbox({ requisitesDelayMs: 0 });
  service = await serve(sandbox);
  const expected = `Basic ${Buffer.from(`${USER}:${PASSWORD}`).toString('base64')}`;
  const verifier = new Webhook(SECRET);
  backend = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk) => (body += chunk));
    req.on('end', () => {
      const authorized = req.headers.authorization === expected;
      let verified = true;
      try {
        verifier.verify(body, req.headers as Record<string, string>);
      } catch {
        verified = false;
      }
      heard.push({ path: req.url ?? '', authorized, verified });
      if (!authorized) return void res.writeHead(401, { 'www-authenticate': 'Basic realm="staging"' }).end();
      if (req.url === '/price')
        return void res.writeHead(200, { 'content-type': 'application/json' }).end('{"amount":"499.00","currency":"INR"}');
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => backend.listen(0, '127.0.0.1', () => resolve()));
  backendUrl = `127.0.0.1:${(backend.address() as { port: number }).port}`;
});

afterAll(async () => {
  await server?.close();
  sandbox.close();
  await service.close();
  await new Promise((resolve) => backend.close(resolve));
});

describe('a shop backend behind HTTP basic auth', () => {
  it('is priced and sent webhooks with the user and password of its URLs, which the log never shows', async () => {
    const log: string[] = [];
    const config = readStandaloneConfig({
      ...sandboxMerchant(service.url),
      PAYIN_RESOLVE_URL: `http://${userInfo}@${backendUrl}/price`,
      PAYIN_WEBHOOK_URL: `http://${userInfo}@${backendUrl}/webhook`,
      PAYIN_WEBHOOK_SECRET: SECRET,
      PAYIN_STORE_URL: 'memory:',
      PORT: '0',
    });
    server = await startStandalone(config, { log: (line) => log.push(line), reconcileEveryMs: 0, storeCheckEveryMs: 0 });
    const created = await fetch(`${server.url}/payin/payments`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ orderId: 'STAGING-1', method: 'upi' }),
    });
    expect(created.status).toBe(201);
    expect(heard).toContainEqual({ path: '/price', authorized: true, verified: true });
    // The payment's first state follows as a webhook (the create does not wait for it).
    for (let turn = 0; turn < 200 && !heard.some((call) => call.path === '/webhook'); turn++) {
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    expect(heard).toContainEqual({ path: '/webhook', authorized: true, verified: true });
    expect(heard.every((call) => call.authorized)).toBe(true);
    expect(log.join('\n')).not.toMatch(/pa ss|pa%20ss|word-7731/);
  });
});
