/**
 * SQLite without a compiler: the store contract suite run again on Bun and on Deno (the npm packages of both, as
 * the project's other runtime tests use them), where the store must pick the runtime's own SQLite; and the
 * standalone server started on each from a build whose node_modules has no better-sqlite3 at all, taking a
 * payment on a SQLite file. Node 20 on that same build says which package to install, which shows the native
 * module really is absent there.
 */
import { spawn } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSandbox, DEMO_MERCHANT, type Sandbox } from '../../src/sandbox/index.js';
import { serve, type RunningServer } from '../../src/server/serve.js';
import { compileCli, type CompiledCli } from '../support/compiled-cli.js';
import { childEnv, OTHER_RUNTIMES, runTestFileOn } from '../support/other-runtimes.js';

const DRIVERS = { Bun: 'bun:sqlite', Deno: 'node:sqlite' } as const;
const RUNTIMES = OTHER_RUNTIMES.map((runtime) => ({ ...runtime, driver: DRIVERS[runtime.name] }));

describe.each(RUNTIMES)('the SQLite store on $name', (runtime) => {
  it(`passes the store contract suite on ${runtime.driver}`, () => {
    const { status, output } = runTestFileOn(runtime, 'test/sqlite/sqlite-store.test.ts');
    expect(status, output).toBe(0);
    expect(output).toContain(`sqlite driver: ${runtime.driver}`);
    expect(output).toMatch(/Tests\s+\d+ passed/);
  }, 150_000);
});

describe('the standalone server with no native module installed', () => {
  let build: CompiledCli;
  let sandbox: Sandbox;
  let service: RunningServer;
  let shop: Server;
  let shopUrl = '';
  beforeAll(async () => {
    build = compileCli({ without: ['better-sqlite3'] });
    sandbox = createSandbox({ requisitesDelayMs: 0 });
    service = await serve(sandbox);
    // The shop prices every order and takes every webhook; this test is about the store, not the signatures.
    shop = createServer((req, res) => {
      req.resume();
      req.on('end', () => res.writeHead(200, { 'content-type': 'application/json' }).end('{"amount":"300.00","currency":"INR"}'));
    });
    await new Promise<void>((done) => shop.listen(0, '127.0.0.1', done));
    shopUrl = `http://127.0.0.1:${(shop.address() as { port: number }).port}`;
  }, 200_000);
  afterAll(async () => {
    sandbox?.close();
    await service?.close();
    await new Promise((done) => shop?.close(done));
    build?.remove();
  });

  const settings = (file: string) => ({
    PORT: '0',
    PAYIN_BASE_URL: service.url,
    PAYIN_MERCHANT_ID: DEMO_MERCHANT.id,
    PAYIN_TOKEN: DEMO_MERCHANT.token,
    PAYIN_SECRET: DEMO_MERCHANT.secret,
    PAYIN_CALLBACK_URL: 'http://127.0.0.1:9/payin/callback',
    PAYIN_RESOLVE_URL: `${shopUrl}/price`,
    PAYIN_WEBHOOK_URL: `${shopUrl}/webhook`,
    PAYIN_WEBHOOK_SECRET: `whsec_${Buffer.from('the runtime test shares this secret').toString('base64')}`,
    PAYIN_STORE_URL: `sqlite:${join(build.dir, file)}`,
  });

  /** Starts `payin-checkout proxy` and resolves with its URL once it listens (or with its output once it exits). */
  function startProxy(command: string, args: readonly string[], file: string) {
    const child = spawn(command, [...args, build.cli, 'proxy'], {
      cwd: build.dir,
      env: childEnv(settings(file)),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (chunk) => (output += chunk));
    child.stderr.on('data', (chunk) => (output += chunk));
    const exited = new Promise<number | null>((done) => child.on('exit', (code) => done(code)));
    const listening = new Promise<string | undefined>((done) => {
      child.stdout.on('data', () => {
        const url = /listening on (http:\/\/\S+)/.exec(output)?.[1];
        if (url && output.includes('webhooks to')) done(url);
      });
      void exited.then(() => done(undefined));
    });
    return { child, listening, exited, output: () => output };
  }

  it.each(RUNTIMES)(
    'starts on $name and takes a payment on its own SQLite',
    async ({ name, command, args }) => {
      const run = startProxy(command, name === 'Bun' ? args : [...args, '--node-modules-dir=manual'], `${name}.db`);
      try {
        const url = await run.listening;
        expect(url, run.output()).toBeDefined();
        const created = await fetch(`${url}/payin/payments`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ orderId: `RT-${name}`, method: 'upi' }),
        });
        expect(created.status, run.output()).toBe(201);
        const { payment, token } = (await created.json()) as { payment: { id: string }; token: string };
        const status = await fetch(`${url}/payin/status`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ paymentId: payment.id, token }),
        });
        expect(status.status).toBe(200);
        expect(run.output()).not.toMatch(/better-sqlite3/);
      } finally {
        run.child.kill('SIGTERM');
        await run.exited;
      }
    },
    60_000,
  );

  it('on Node 20, which has no SQLite of its own, names the package to install', async (test) => {
    if (process.getBuiltinModule?.('node:sqlite')) return test.skip();
    const run = startProxy(process.execPath, [], 'node.db');
    expect(await run.listening).toBeUndefined();
    expect(await run.exited).not.toBe(0);
    expect(run.output()).toContain('npm install better-sqlite3');
  }, 60_000);
});
