/**
 * `payin-checkout proxy` as an operator runs it: a separate process configured by a file, that says what it serves
 * without a secret, refuses to start half-configured, and on SIGTERM finishes the request it is in the middle of
 * (a create waiting on the shop's pricing endpoint), ends its event streams, closes its SQLite file and exits 0,
 * the payment it was creating kept for the next process. The CLI is compiled on its own into a private directory
 * (test/support/compiled-cli.ts), so that no earlier build is needed and dist/ is never raced.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { join } from 'node:path';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSandbox, DEMO_MERCHANT, type Sandbox } from '../../src/sandbox/index.js';
import { serve, type RunningServer } from '../../src/server/serve.js';
import { readStandaloneConfig, startStandalone } from '../../src/standalone/index.js';
import { useCompiledCli } from '../support/compiled-cli.js';
import { sandboxMerchant } from './support/sandbox-merchant.js';

const WEBHOOK_SECRET = `whsec_${Buffer.from('the cli test shares this secret').toString('base64')}`;
const build = useCompiledCli();
const children: ChildProcess[] = [];

afterAll(() => {
  for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
});

function runProxy(args: string[], env: Record<string, string> = {}) {
  const child = spawn(process.execPath, [build.cli, 'proxy', ...args], {
    cwd: build.dir,
    env: { PATH: process.env.PATH ?? '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  const output = { stdout: '', stderr: '' };
  child.stdout!.on('data', (d) => (output.stdout += d));
  child.stderr!.on('data', (d) => (output.stderr += d));
  const exited = new Promise<number | null>((done) => child.on('exit', (code) => done(code)));
  return { child, output, exited };
}

/** Polls until `read` gives a value; bounded by the test's own timeout, never by a speed assumption. */
async function until<T>(what: string, read: () => T | undefined, log = () => ''): Promise<T> {
  for (let i = 0; i < 2_000; i++) {
    const value = read();
    if (value !== undefined) return value;
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error(`no ${what}:\n${log()}`);
}

/** The shop: verifies every signature, prices SHOP-* orders, and can hold a pricing answer until released. */
function startShop() {
  const verifier = new Webhook(WEBHOOK_SECRET);
  const shop = { held: [] as (() => void)[], hold: false, webhooks: 0, server: undefined as unknown as Server, url: '' };
  shop.server = createServer((req: IncomingMessage, res: ServerResponse) => {
    let body = '';
    req.on('data', (chunk) => (body += chunk));
    req.on('end', () => {
      try {
        verifier.verify(body, req.headers as Record<string, string>);
      } catch {
        return void res.writeHead(401).end();
      }
      if (req.url === '/webhook') {
        shop.webhooks++;
        return void res.writeHead(204).end();
      }
      const price = () => res.writeHead(200, { 'content-type': 'application/json' }).end('{"amount":"300.00","currency":"INR"}');
      if (shop.hold) shop.held.push(price);
      else price();
    });
  });
  return new Promise<typeof shop>((done) =>
    shop.server.listen(0, '127.0.0.1', () => {
      shop.url = `http://127.0.0.1:${(shop.server.address() as { port: number }).port}`;
      done(shop);
    }),
  );
}

describe('payin-checkout proxy', () => {
  let sandbox: Sandbox;
  let service: RunningServer;
  let shop: Awaited<ReturnType<typeof startShop>>;
  const settings = () => ({
    PORT: '0',
    ...sandboxMerchant(service.url),
    PAYIN_RESOLVE_URL: `${shop.url}/price`,
    PAYIN_WEBHOOK_URL: `${shop.url}/webhook`,
    PAYIN_WEBHOOK_SECRET: WEBHOOK_SECRET,
    PAYIN_STORE_URL: `sqlite:${join(build.dir, 'cli.db')}`,
  });

  beforeAll(async () => {
    sandbox = createSandbox({ requisitesDelayMs: 0 });
    service = await serve(sandbox);
    shop = await startShop();
  });
  afterAll(async () => {
    sandbox.close();
    await service.close();
    await new Promise((done) => shop.server.close(done));
  });

  it('refuses to start half-configured, naming every missing variable, and exits 2', async () => {
    const run = runProxy([], { PAYIN_SECRET: 'a-secret-never-echoed', PAYIN_RESOLVE_URL: 'http://127.0.0.1:9/price' });
    expect(await run.exited).toBe(2);
    for (const name of [
      'PAYIN_BASE_URL',
      'PAYIN_MERCHANT_ID',
      'PAYIN_TOKEN',
      'PAYIN_CALLBACK_URL',
      'PAYIN_WEBHOOK_URL',
      'PAYIN_WEBHOOK_SECRET',
    ]) {
      expect(run.output.stderr).toContain(name);
    }
    expect(run.output.stderr).not.toContain('PAYIN_SECRET is not set');
    expect(run.output.stderr + run.output.stdout).not.toContain('a-secret-never-echoed');
    const missing = runProxy(['--config', 'nowhere.json']);
    expect(await missing.exited).toBe(2);
    expect(missing.output.stderr).toContain('could not read nowhere.json');
  });

  it('serves from a config file, says what without a secret, and on SIGTERM finishes the request in flight', async () => {
    writeFileSync(join(build.dir, 'payin.json'), JSON.stringify(settings()));
    const run = runProxy(['--config', 'payin.json']);
    const log = () => run.output.stdout + run.output.stderr;
    const url = (await until('listening line', () => /listening on (http:\/\/\S+)/.exec(run.output.stdout)?.[1], log))!;
    await until('the whole banner', () => (run.output.stdout.includes('webhooks to') ? true : undefined), log);
    expect(run.output.stdout).toContain(`${url}/payin`);
    expect(run.output.stdout).toContain(`sqlite:${join(build.dir, 'cli.db')}`);
    expect(run.output.stdout).toContain(`${shop.url}/price`);
    expect(run.output.stdout).toContain(`${shop.url}/webhook`);
    for (const secret of [DEMO_MERCHANT.token, DEMO_MERCHANT.secret, WEBHOOK_SECRET]) expect(log()).not.toContain(secret);
    expect((await fetch(`${url}/healthz`)).status).toBe(200);
    expect(await (await fetch(`${url}/metrics`)).text()).toContain('# TYPE payin_open_event_streams gauge');

    const create = (orderId: string) =>
      fetch(`${url}/payin/payments`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ orderId, method: 'upi' }),
      });
    const first = (await (await create('SHOP-CLI-1')).json()) as { payment: { id: string }; token: string };
    const stream = await fetch(`${url}/payin/events?paymentId=${first.payment.id}&token=${encodeURIComponent(first.token)}`);
    expect(stream.status).toBe(200);
    const reader = stream.body!.getReader();
    await reader.read();
    expect(await (await fetch(`${url}/metrics`)).text()).toContain('payin_open_event_streams 1');

    shop.hold = true;
    const inFlight = create('SHOP-CLI-2');
    await until('the pricing call to reach the shop', () => (shop.held.length ? true : undefined), log);
    run.child.kill('SIGTERM');
    await until('the shutdown to begin', () => (run.output.stdout.includes('SIGTERM') ? true : undefined), log);
    for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) {
      // the stream ends: the server ended it instead of waiting for it
    }
    expect(run.child.exitCode).toBe(null);
    shop.hold = false;
    shop.held.shift()!();
    const answer = await inFlight;
    expect(answer.status).toBe(201);
    const second = (await answer.json()) as { payment: { id: string; amount: string }; token: string };
    expect(second.payment.amount).toBe('300.00');
    expect(await run.exited).toBe(0);
    expect(run.output.stdout).toMatch(/stopped\s*$/);

    // The next process finds the payment the last one created while stopping.
    const next = await startStandalone(readStandaloneConfig(settings()), { log: () => {}, reconcileEveryMs: 0 });
    try {
      const status = await fetch(`${next.url}/payin/status`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ paymentId: second.payment.id, token: second.token }),
      });
      expect(status.status).toBe(200);
      expect(((await status.json()) as { payment: { id: string } }).payment.id).toBe(second.payment.id);
    } finally {
      await next.close();
    }
  }, 60_000);

  it('stops at once on a second signal while the first is still waiting for a request in flight', async () => {
    const run = runProxy([], { ...settings(), PAYIN_STORE_URL: `sqlite:${join(build.dir, 'cli-twice.db')}` });
    const log = () => run.output.stdout + run.output.stderr;
    const url = (await until('listening line', () => /listening on (http:\/\/\S+)/.exec(run.output.stdout)?.[1], log))!;
    shop.hold = true;
    const inFlight = fetch(`${url}/payin/payments`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ orderId: 'SHOP-CLI-3', method: 'upi' }),
    }).catch(() => undefined);
    await until('the pricing call to reach the shop', () => (shop.held.length ? true : undefined), log);
    run.child.kill('SIGINT');
    await until('the shutdown to begin', () => (run.output.stdout.includes('SIGINT') ? true : undefined), log);
    run.child.kill('SIGINT');
    expect(await run.exited).toBe(1);
    expect(run.output.stdout).toMatch(/SIGINT again: stopping now/);
    shop.hold = false;
    for (const release of shop.held.splice(0)) release();
    await inFlight;
  }, 60_000);
});
