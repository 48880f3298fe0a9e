/**
 * Every runnable file in examples/ takes a payment end to end against the real sandbox: it is started the way
 * docs/runtimes.md says (node, Bun or Deno from npm; the worker bundled with esbuild and run in workerd through
 * miniflare), with the PAYIN_* variables pointing at a sandbox on loopback; a
 * payment is created through it (its answer carries the QR's module matrix, which a QR reader reads back as the
 * payment's `qr`: the proxy's encoder runs on each runtime), the payer pays in the sandbox, and the example's own
 * hook prints "paid" and its status route says so; an SBP payment is made through it too. The examples import
 * the package by its public name, from the built dist/.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { Miniflare } from 'miniflare';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSandbox, DEMO_MERCHANT, type Sandbox } from '../../src/sandbox/index.js';
import { serve, type RunningServer } from '../../src/server/index.js';
import { freePort } from '../support/free-port.js';
import { decoded } from '../support/read-qr-matrix.js';

const root = fileURLToPath(new URL('../..', import.meta.url));
const npx = process.platform === 'win32' ? 'npx.cmd' : 'npx';

const EXAMPLES: [name: string, command: string, args: string[]][] = [
  ['node:http', process.execPath, ['examples/node-http.mjs']],
  ['Express 5', process.execPath, ['examples/express.mjs']],
  ['Fastify', process.execPath, ['examples/fastify.mjs']],
  ['Hono on Node', process.execPath, ['examples/hono-node.mjs']],
  ['a Next.js route handler', process.execPath, ['examples/next/serve-route.mjs']],
  ['Bun', npx, ['--no-install', 'bun', 'examples/bun.ts']],
  ['Deno', npx, ['--no-install', 'deno', 'run', '--allow-net', '--allow-env', '--allow-read', 'examples/deno.ts']],
];

async function until(condition: () => boolean | Promise<boolean>, ms: number, what: string): Promise<void> {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (
      await Promise.resolve()
        .then(condition)
        .catch(() => false)
    )
      return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`timed out waiting for ${what}`);
}

/** True once nothing answers on the port any more. */
const closed = (port: number) =>
  fetch(`http://127.0.0.1:${port}/payin/status`, { method: 'POST', signal: AbortSignal.timeout(1_000) }).then(
    () => false,
    () => true,
  );

describe('examples/', () => {
  let sandbox: Sandbox;
  let running: RunningServer;
  beforeAll(async () => {
    sandbox = createSandbox({ requisitesDelayMs: 0, callbackRetryDelayMs: 200 });
    running = await serve(sandbox);
  });
  afterAll(async () => {
    sandbox.close();
    await running.close();
  });

  /** Runs one example on `port` with these variables; the output is what its hook printed. */
  interface Started {
    output(): string;
    stop(): Promise<void>;
  }
  const variables = (port: number) => ({
    PAYIN_BASE_URL: running.url,
    PAYIN_MERCHANT_ID: DEMO_MERCHANT.id,
    PAYIN_TOKEN: DEMO_MERCHANT.token,
    PAYIN_SECRET: DEMO_MERCHANT.secret,
    PAYIN_CALLBACK_URL: `http://127.0.0.1:${port}/payin/callback`,
  });

  async function startProcess(command: string, args: string[], port: number): Promise<Started> {
    const child: ChildProcess = spawn(command, args, {
      cwd: root,
      env: { ...process.env, ...variables(port), PORT: String(port), NO_COLOR: '1' },
      stdio: ['ignore', 'pipe', 'pipe'],
      // Its own process group: npx starts Bun and Deno as children of its own, which a signal to npx alone leaves
      // running (still listening, on a machine others share) long after the test.
      detached: true,
    });
    let output = '';
    child.stdout!.on('data', (chunk) => (output += chunk));
    child.stderr!.on('data', (chunk) => (output += chunk));
    return {
      output: () => output,
      stop: async () => {
        if (child.exitCode === null && child.signalCode === null) process.kill(-child.pid!, 'SIGTERM');
        await until(() => closed(port), 10_000, `${args.join(' ')} to stop listening on ${port}`);
      },
    };
  }

  async function startWorker(port: number): Promise<Started> {
    // As a shop deploys it: bundled (wrangler does the same with esbuild), then run by workerd.
    const bundle = await build({
      entryPoints: ['examples/cloudflare-worker.ts'],
      absWorkingDir: root,
      bundle: true,
      format: 'esm',
      platform: 'neutral',
      // Wrangler's resolution: the workerd, worker and browser export conditions, then a package's module or main
      // field (CommonJS dependencies such as ipaddr.js are bundled as they are for any worker).
      conditions: ['workerd', 'worker', 'browser', 'import'],
      mainFields: ['module', 'main'],
      write: false,
      logLevel: 'error',
    });
    let output = '';
    const mf = new Miniflare({
      modules: true,
      script: bundle.outputFiles[0]!.text,
      host: '127.0.0.1',
      port,
      compatibilityDate: '2025-01-01',
      bindings: variables(port),
      handleRuntimeStdio(stdout: NodeJS.ReadableStream, stderr: NodeJS.ReadableStream) {
        stdout.on('data', (chunk: Buffer) => (output += chunk));
        stderr.on('data', (chunk: Buffer) => (output += chunk));
      },
    });
    await mf.ready;
    return { output: () => output, stop: () => mf.dispose() };
  }

  it.each([...EXAMPLES, ['a Cloudflare worker (workerd)', '', []] as (typeof EXAMPLES)[number]])(
    '%s takes a payment end to end',
    async (name, command, args) => {
      const port = await freePort();
      const base = `http://127.0.0.1:${port}`;
      const started = command ? await startProcess(command, args, port) : await startWorker(port);
      const output = () => started.output();
      try {
        const post = (path: string, body: unknown) =>
          fetch(`${base}/payin${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
        await until(async () => (await post('/status', {})).status === 400, 30_000, `${name} to listen (${output().slice(-500)})`);
        const orderId = `EX-${name.replace(/\W/g, '')}-${Date.now()}`;
        const created = await post('/payments', { orderId, method: 'upi' });
        expect(created.status, output()).toBe(201);
        type Answer = { payment: { id: string; qr?: string; qrMatrix?: unknown }; token: string };
        const { payment: first, token } = (await created.json()) as Answer;
        // The sandbox hands out the requisites a moment after the create (as the service does), so the create's
        // answer may still be `created`: the QR then comes with a status answer, as the widget would poll for it.
        let payment = first;
        await until(
          async () => {
            if (!payment.qr) payment = ((await (await post('/status', { paymentId: first.id, token })).json()) as Answer).payment;
            return payment.qr !== undefined;
          },
          10_000,
          `${name} to show the QR`,
        );
        expect(payment.qr, output()).toMatch(/^upi:\/\/pay\?/);
        expect(decoded(payment), output()).toBe(payment.qr);
        sandbox.act(payment.id, 'pay');
        await until(() => output().includes(`{"orderId":"${orderId}","outcome":"paid"}`), 15_000, `${name}'s hook to hear paid`);
        const status = (await (await post('/status', { paymentId: payment.id, token })).json()) as { payment: { outcome: string } };
        expect(status.payment.outcome).toBe('paid');
        // The other method the guide's page offers: the service takes SBP in roubles only.
        const sbp = await post('/payments', { orderId: `${orderId}-sbp`, method: 'sbp' });
        expect(sbp.status, output()).toBe(201);
      } finally {
        await started.stop();
      }
    },
    60_000,
  );

  it('keeps a quiet event stream open on Bun past its 10 s idle timeout, with pings', async () => {
    const port = await freePort();
    const base = `http://127.0.0.1:${port}`;
    const started = await startProcess(npx, ['--no-install', 'bun', 'examples/bun.ts'], port);
    try {
      const post = (path: string, body: unknown) =>
        fetch(`${base}/payin${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
      await until(async () => (await post('/status', {})).status === 400, 30_000, 'Bun to listen');
      const created = await post('/payments', { orderId: `EX-idle-${Date.now()}`, method: 'upi' });
      const { payment, token } = (await created.json()) as { payment: { id: string }; token: string };
      const stream = await fetch(`${base}/payin/events?paymentId=${payment.id}&token=${token}`);
      const reader = stream.body!.getReader();
      let text = '';
      let closed = false;
      const reading = (async () => {
        for (;;) {
          const { done, value } = await reader.read();
          if (done) return void (closed = true);
          text += new TextDecoder().decode(value);
        }
      })().catch(() => (closed = true));
      await new Promise((resolve) => setTimeout(resolve, 12_000));
      expect({ closed, pings: (text.match(/^: ping$/gm) ?? []).length >= 1 }).toEqual({ closed: false, pings: true });
      await reader.cancel();
      await reading;
    } finally {
      await started.stop();
    }
  }, 60_000);
});
