/**
 * The standalone proxy server as a shop on another stack meets it: configured by PAYIN_* variables, pricing
 * through the shop's endpoint or signed order tokens, webhooks in the Standard Webhooks format verified by the
 * `standardwebhooks` package (what the shop's own libraries implement), the real sandbox over loopback, restarts
 * on its SQLite file losing nothing.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, request as httpRequest, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSandbox, DEMO_MERCHANT, type Sandbox } from '../../src/sandbox/index.js';
import { serve, type RunningServer } from '../../src/server/serve.js';
import { ConfigError, readStandaloneConfig, signOrderToken, startStandalone, type StandaloneServer } from '../../src/standalone/index.js';
import { signInToConsole } from '../support/console-sign-in.js';

const WEBHOOK_SECRET = `whsec_${Buffer.from('a shared secret of enough bytes').toString('base64')}`;
const TOKEN_SECRET = 'order-token-key-for-tests';
const dir = mkdtempSync(join(tmpdir(), 'payin-standalone-'));

/** The shop's backend: prices orders and takes webhooks, verifying every call's signature. */
interface Backend {
  url: string;
  webhooks: { id: string; data: { orderId: string; outcome: string } }[];
  failNextWebhooks: number;
  refused: number;
  close(): Promise<void>;
}

async function startBackend(): Promise<Backend> {
  const verifier = new Webhook(WEBHOOK_SECRET);
  const backend = { webhooks: [], failNextWebhooks: 0, refused: 0 } as unknown as Backend;
  const server: Server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk) => (body += chunk));
    req.on('end', () => {
      let payload: any;
      try {
        payload = verifier.verify(body, req.headers as Record<string, string>);
      } catch {
        backend.refused++;
        return void res.writeHead(401).end();
      }
      if (req.url === '/price') {
        if (!String(payload.orderId).startsWith('SHOP-')) return void res.writeHead(404).end();
        return void res.writeHead(200, { 'content-type': 'application/json' }).end('{"amount":"750.00","currency":"INR"}');
      }
      if (backend.failNextWebhooks > 0) {
        backend.failNextWebhooks--;
        return void res.writeHead(503).end();
      }
      backend.webhooks.push({ id: String(req.headers['webhook-id']), data: payload.data });
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  backend.url = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  backend.close = () => new Promise((resolve) => server.close(() => resolve()));
  return backend;
}

/** One request on a fresh connection (a restarted server on the same port must not get a pooled socket). */
function post(url: string, body: unknown): Promise<{ status: number; body: any }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(url, { method: 'POST', agent: false, headers: { 'content-type': 'application/json' } }, (res) => {
      let text = '';
      res.on('data', (chunk) => (text += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text ? JSON.parse(text) : undefined }));
    });
    req.on('error', reject);
    req.end(JSON.stringify(body));
  });
}

async function until(condition: () => boolean, what: string, ms = 15_000): Promise<void> {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (condition()) return;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error(`timed out waiting for ${what}`);
}

describe('the standalone proxy server', () => {
  let sandbox: Sandbox;
  let service: RunningServer;
  let backend: Backend;
  const running: StandaloneServer[] = [];
  const env = (extra: Record<string, string>) => ({
    PAYIN_BASE_URL: service.url,
    PAYIN_MERCHANT_ID: DEMO_MERCHANT.id,
    PAYIN_TOKEN: DEMO_MERCHANT.token,
    PAYIN_SECRET: DEMO_MERCHANT.secret,
    PAYIN_WEBHOOK_URL: `${backend.url}/webhook`,
    PAYIN_WEBHOOK_SECRET: WEBHOOK_SECRET,
    ...extra,
  });
  /** Starts the server on `port` with its callback URL pointing at itself. */
  const start = async (port: number, extra: Record<string, string>, log: string[] = []) => {
    const config = readStandaloneConfig(
      env({ PORT: String(port), PAYIN_CALLBACK_URL: `http://127.0.0.1:${port}/payin/callback`, ...extra }),
    );
    const server = await startStandalone(config, { log: (line) => log.push(line), reconcileEveryMs: 0 });
    running.push(server);
    return server;
  };
  const freePort = async () => {
    const s = await serve(() => new Response(''));
    const port = s.port;
    await s.close();
    return port;
  };

  beforeAll(async () => {
    sandbox = createSandbox({ requisitesDelayMs: 0, callbackRetryDelayMs: 100 });
    service = await serve(sandbox);
    backend = await startBackend();
  });
  afterAll(async () => {
    for (const server of running) await server.close().catch(() => {});
    sandbox.close();
    await service.close();
    await backend.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('refuses to start half-configured, naming every missing variable and never a secret', () => {
    let error: unknown;
    try {
      readStandaloneConfig({ PAYIN_SECRET: 'very-secret-value', PAYIN_WEBHOOK_SECRET: 'not-a-whsec' });
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(ConfigError);
    const message = (error as Error).message;
    for (const name of [
      'PAYIN_BASE_URL',
      'PAYIN_MERCHANT_ID',
      'PAYIN_TOKEN',
      'PAYIN_CALLBACK_URL',
      'PAYIN_WEBHOOK_URL',
      'PAYIN_RESOLVE_URL',
    ]) {
      expect(message).toContain(name);
    }
    expect(message).toMatch(/PAYIN_WEBHOOK_SECRET must look like whsec_/);
    expect(message).not.toContain('very-secret-value');
  });

  it('takes a PostgreSQL store URL, and refuses an unknown one without echoing it', () => {
    const rest = env({ PAYIN_CALLBACK_URL: 'http://127.0.0.1:2/payin/callback', PAYIN_ORDER_TOKEN_SECRET: 'an-order-token-secret' });
    const url = 'postgresql://payin:hunter2@db:5432/shop';
    expect(readStandaloneConfig({ ...rest, PAYIN_STORE_URL: url }).storeUrl).toBe(url);
    expect(() => readStandaloneConfig({ ...rest, PAYIN_STORE_URL: 'mysql://payin:hunter2@db/shop' })).toThrow(
      expect.objectContaining({ message: expect.stringMatching(/PAYIN_STORE_URL must start with .*postgres:\/\//) }),
    );
    expect(() => readStandaloneConfig({ ...rest, PAYIN_STORE_URL: 'mysql://payin:hunter2@db/shop' })).toThrow(
      expect.objectContaining({ message: expect.not.stringContaining('hunter2') }),
    );
  });

  it('prices through the shop, takes the payment, and delivers each state as a signed webhook until the shop answers 2xx', async () => {
    const port = await freePort();
    const server = await start(port, { PAYIN_RESOLVE_URL: `${backend.url}/price`, PAYIN_STORE_URL: `sqlite:${join(dir, 'a.db')}` });
    expect((await post(`${server.url}/payin/payments`, { orderId: 'OTHER-1', method: 'upi' })).status).toBe(404);
    const created = await post(`${server.url}/payin/payments`, { orderId: 'SHOP-1', method: 'upi' });
    expect([created.status, created.body.payment.amount]).toEqual([201, '750.00']);
    backend.failNextWebhooks = 1;
    sandbox.act(created.body.payment.id, 'pay');
    await until(() => backend.webhooks.some((w) => w.data.orderId === 'SHOP-1' && w.data.outcome === 'paid'), 'the paid webhook');
    expect(backend.webhooks.filter((w) => w.data.orderId === 'SHOP-1' && w.data.outcome === 'paid')).toHaveLength(1);
    expect(backend.webhooks.find((w) => w.data.outcome === 'paid')!.id).toBe(`msg_${created.body.payment.id}_finished`);
    expect(backend.refused).toBe(0);
    const health = await fetch(`${server.url}/healthz`);
    expect(health.status).toBe(200);
    const metrics = await (await fetch(`${server.url}/metrics`)).text();
    expect(metrics).toMatch(/payin_payments_announced_total\{outcome="paid"\} 1/);
    expect(metrics).toMatch(/payin_webhook_failures_total [1-9]/);
    expect(metrics).toMatch(/payin_upstream_request_seconds_count [1-9]/);
  });

  it('prices an order whose id is not ASCII (Cyrillic, Devanagari) through the shop, the call still signed', async () => {
    const server = await start(await freePort(), { PAYIN_RESOLVE_URL: `${backend.url}/price`, PAYIN_STORE_URL: 'memory:' });
    const refused = backend.refused;
    for (const orderId of ['SHOP-заказ-7', 'SHOP-ऑर्डर-8', 'SHOP-café-9']) {
      const created = await post(`${server.url}/payin/payments`, { orderId, method: 'upi' });
      expect([created.status, created.body.payment?.orderId, created.body.payment?.amount]).toEqual([201, orderId, '750.00']);
    }
    expect(backend.refused).toBe(refused);
  });

  it('prices from a signed order token, and refuses one that is expired, altered, for another order or missing, saying which in the log', async () => {
    const log: string[] = [];
    const server = await start(
      await freePort(),
      {
        PAYIN_ORDER_TOKEN_SECRET: TOKEN_SECRET,
        PAYIN_STORE_URL: `sqlite:${join(dir, 'b.db')}`,
      },
      log,
    );
    const exp = Math.floor(Date.now() / 1000) + 600;
    const good = await signOrderToken(TOKEN_SECRET, { orderId: 'TOK-1', amount: '120.00', currency: 'INR', exp });
    const create = (orderId: string, orderToken?: string) =>
      post(`${server.url}/payin/payments`, { orderId, method: 'upi', ...(orderToken ? { orderToken } : {}) });
    const created = await create('TOK-1', good);
    expect([created.status, created.body.payment.amount]).toEqual([201, '120.00']);
    const expired = await signOrderToken(TOKEN_SECRET, { orderId: 'TOK-2', amount: '1.00', currency: 'INR', exp: exp - 1_200 });
    const [payload, mac] = good.split('.') as [string, string];
    const altered = `${Buffer.from(JSON.stringify({ orderId: 'TOK-1', amount: '0.01', currency: 'INR', exp })).toString('base64url')}.${mac}`;
    expect((await create('TOK-2', expired)).status).toBe(404);
    expect((await create('TOK-1', altered)).status).toBe(404);
    expect((await create('TOK-3', good)).status).toBe(404);
    expect((await create('TOK-4')).status).toBe(404);
    expect(payload.length).toBeGreaterThan(10);
    const refusals = log.filter((line) => line.startsWith('refused'));
    expect(refusals).toEqual([
      expect.stringMatching(/^refused an order token for TOK-2: expired \d+ s ago/),
      'refused an order token for TOK-1: signature does not verify',
      'refused an order token for TOK-3: for another order',
      // A page without order-token (forgotten in the template) was a 404 with nothing in the log at all.
      expect.stringMatching(/^refused a create of TOK-4: no order token .*order-token=/),
    ]);
  });

  it('says in its startup log that the memory store forgets on restart, and takes it only by its name', async () => {
    const pricing = { PAYIN_RESOLVE_URL: `${backend.url}/price` };
    const log: string[] = [];
    await start(await freePort(), { ...pricing, PAYIN_STORE_URL: 'memory:' }, log);
    expect(log.filter((line) => line.startsWith('warning:'))).toEqual([expect.stringMatching(/memory store .* forgets .* on restart/)]);
    const sqliteLog: string[] = [];
    await start(await freePort(), { ...pricing, PAYIN_STORE_URL: `sqlite:${join(dir, 'warning-check.db')}` }, sqliteLog);
    expect(sqliteLog.some((line) => line.startsWith('warning:'))).toBe(false);
    await expect(start(await freePort(), { ...pricing, PAYIN_STORE_URL: 'memory' })).rejects.toThrow(/must start with/);
  });

  /**
   * A server behind a web server that names each shopper in `header`, allowing 2 creates a minute per client, and
   * a create of order `orderId` as a request whose `header` says `value`: its status (404, the pricing endpoint
   * knowing no such order, or 429).
   */
  async function limitedBehind(header: string): Promise<(value: string, orderId: string) => Promise<number>> {
    const server = await startStandalone(
      readStandaloneConfig(
        env({
          PAYIN_CALLBACK_URL: 'http://127.0.0.1:1/payin/callback',
          PAYIN_RESOLVE_URL: `${backend.url}/price`,
          PAYIN_STORE_URL: 'memory:',
          PAYIN_CLIENT_IP_HEADER: header,
          PORT: '0',
        }),
      ),
      { log: () => {}, reconcileEveryMs: 0, limits: { createsPerMinute: 2 } },
    );
    running.push(server);
    return (value, orderId) =>
      fetch(`${server.url}/payin/payments`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', [header]: value },
        body: JSON.stringify({ orderId, method: 'upi' }),
      }).then((answer) => answer.status);
  }

  it('behind the web server it is meant to sit behind, limits each shopper by PAYIN_CLIENT_IP_HEADER, not all of them as one client', async () => {
    // Every request reaches the server from the web server's own address; the header tells the shoppers apart.
    const limited = await limitedBehind('X-Real-IP');
    const create = (shopper: string, n: number) => limited(shopper, `OTHER-${n}`);
    const shoppers = ['203.0.113.1', '203.0.113.2', '203.0.113.3', '203.0.113.4'];
    expect(await Promise.all(shoppers.map((shopper, n) => create(shopper, n)))).toEqual([404, 404, 404, 404]);
    expect([await create('203.0.113.9', 10), await create('203.0.113.9', 11), await create('203.0.113.9', 12)]).toEqual([404, 404, 429]);
    // A list (X-Forwarded-For style) counts by its last address, the one the shop's own web server appended.
    expect(await create('198.51.100.7, 203.0.113.9', 13)).toBe(429);
    expect(() =>
      readStandaloneConfig(
        env({
          PAYIN_CALLBACK_URL: 'http://127.0.0.1:1/payin/callback',
          PAYIN_RESOLVE_URL: 'http://127.0.0.1:1/price',
          PAYIN_CLIENT_IP_HEADER: 'real ip',
        }),
      ),
    ).toThrow(/PAYIN_CLIENT_IP_HEADER must be a header name/);
  });

  it('counts a shopper as one client when the web server writes the address with its port (Azure Application Gateway does)', async () => {
    // Each new connection of the shopper's comes from another port.
    const limited = await limitedBehind('X-Forwarded-For');
    const create = (forwardedFor: string, n: number) => limited(forwardedFor, `PORTS-${n}`);
    const statuses: number[] = [];
    for (const port of [40001, 40002, 40003]) statuses.push(await create(`203.0.113.5:${port}`, port));
    expect(statuses).toEqual([404, 404, 429]);
    const v6: number[] = [];
    for (const [n, port] of [40001, 40002, 40003].entries()) v6.push(await create(`[2001:db8:5:6::${n + 1}]:${port}`, port + 10));
    expect(v6).toEqual([404, 404, 429]);
  });

  it('names the shop endpoints in its startup log without a key in their query', async () => {
    const log: string[] = [];
    await start(
      await freePort(),
      {
        PAYIN_RESOLVE_URL: `${backend.url}/price?key=pricing-key-0123`,
        PAYIN_WEBHOOK_URL: `${backend.url}/webhook?key=webhook-key-4567`,
        PAYIN_STORE_URL: 'memory:',
      },
      log,
    );
    const text = log.join('\n');
    expect(text).toContain(`pricing: ${backend.url}/price`);
    expect(text).toContain(`webhooks to ${backend.url}/webhook`);
    expect(text).not.toMatch(/pricing-key|webhook-key/);
    expect(() =>
      readStandaloneConfig(
        env({
          PAYIN_CALLBACK_URL: 'http://127.0.0.1:1/payin/callback',
          PAYIN_RESOLVE_URL: 'http://[shop/price',
          PAYIN_WEBHOOK_URL: 'http://[shop/hook',
        }),
      ),
    ).toThrow(/PAYIN_WEBHOOK_URL must be an http\(s\) URL[\s\S]*PAYIN_RESOLVE_URL must be an http\(s\) URL/);
  });

  it('serves the operator console only with PAYIN_CONSOLE_TOKEN, behind its login form', async () => {
    const pricing = { PAYIN_RESOLVE_URL: `${backend.url}/price` };
    const off = await start(await freePort(), { ...pricing, PAYIN_STORE_URL: 'memory:' });
    expect((await fetch(`${off.url}/payin/console`)).status).toBe(404);
    expect(() =>
      readStandaloneConfig(env({ ...pricing, PAYIN_CALLBACK_URL: 'http://127.0.0.1:1/payin/callback', PAYIN_CONSOLE_TOKEN: 'short' })),
    ).toThrow(/PAYIN_CONSOLE_TOKEN must be at least 16/);
    const token = 'standalone-console-token-0123456789';
    const log: string[] = [];
    const on = await start(await freePort(), { ...pricing, PAYIN_STORE_URL: 'memory:', PAYIN_CONSOLE_TOKEN: token }, log);
    expect(log.some((line) => line.includes('/payin/console (sign in with PAYIN_CONSOLE_TOKEN)'))).toBe(true);
    expect(log.join('\n')).not.toContain(token);
    const page = await fetch(`${on.url}/payin/console`);
    expect(page.status).toBe(401);
    expect(await page.text()).toContain('name="token"');
    expect((await fetch(`${on.url}/payin/console/api/payments`)).status).toBe(401);
    const cookie = await signInToConsole(on.url, token);
    const list = await fetch(`${on.url}/payin/console/api/payments`, { headers: { cookie } });
    expect(list.status).toBe(200);
    expect(list.headers.get('cache-control')).toBe('no-store');
  });

  it('loses nothing across a restart on its SQLite file: a payment paid while it was down is announced once', async () => {
    const port = await freePort();
    const extra = { PAYIN_RESOLVE_URL: `${backend.url}/price`, PAYIN_STORE_URL: `sqlite:${join(dir, 'restart.db')}` };
    const first = await start(port, extra);
    const created = await post(`${first.url}/payin/payments`, { orderId: 'SHOP-R', method: 'upi' });
    expect(created.status).toBe(201);
    await first.close();
    sandbox.act(created.body.payment.id, 'pay');
    const second = await start(port, extra);
    const status = await post(`${second.url}/payin/status`, { paymentId: created.body.payment.id, token: created.body.token });
    expect(status.body.payment.outcome).toBe('paid');
    await second.proxy.reconcile();
    await until(
      () => backend.webhooks.some((w) => w.data.orderId === 'SHOP-R' && w.data.outcome === 'paid'),
      'the paid webhook after the restart',
    );
    await sandbox.idle();
    await second.proxy.reconcile();
    expect(backend.webhooks.filter((w) => w.data.orderId === 'SHOP-R' && w.data.outcome === 'paid')).toHaveLength(1);
    expect((await post(`${second.url}/payin/payments`, { orderId: 'SHOP-R', method: 'upi' })).status).toBe(409);
  });
});
