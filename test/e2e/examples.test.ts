/**
 * Every runnable file in examples/ takes a payment end to end against the real sandbox: it is started the way
 * docs/runtimes.md says (node, Bun or Deno from npm; the worker bundled with esbuild and run in workerd through
 * miniflare, with the compatibility date and flags of its wrangler configuration), with the PAYIN_* variables pointing at a sandbox on loopback; a
 * payment is created through it (its answer carries the QR's module matrix, which a QR reader reads back as the
 * payment's `qr`: the proxy's encoder runs on each runtime), the payer pays in the sandbox, and the example's own
 * hook prints "paid" and its status route says so; an SBP payment is made through it too. The examples import
 * the package by its public name, from the built dist/.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSandbox, DEMO_MERCHANT, type Sandbox } from '../../src/sandbox/index.js';
import { serve, type RunningServer } from '../../src/server/index.js';
import { freePort } from '../support/free-port.js';
import { decoded } from '../support/read-qr-matrix.js';
import { runWorker } from './support/worker.js';

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

/** Whether anything answers at `base` now. */
async function answers(base: string): Promise<boolean> {
  try {
    await fetch(`${base}/payin/status`, { method: 'POST', signal: AbortSignal.timeout(2_000) });
    return true;
  } catch {
    return false;
  }
}

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
    // In a process group of its own, which stop() ends whole: npx passes no signal on to the Bun or Deno it runs,
    // so a SIGTERM to npx alone left the example running after the suite, one Bun and one Deno more each run.
    const child: ChildProcess = spawn(command, args, {
      cwd: root,
      env: { ...process.env, ...variables(port), PORT: String(port), NO_COLOR: '1' },
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
    });
    let output = '';
    child.stdout!.on('data', (chunk) => (output += chunk));
    child.stderr!.on('data', (chunk) => (output += chunk));
    const exited = new Promise<void>((resolve) => child.once('close', () => resolve()));
    const stop = async () => {
      try {
        process.kill(-child.pid!, 'SIGTERM');
      } catch {
        return; // the group has gone already
      }
      await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 5_000))]);
    };
    return { output: () => output, stop };
  }

  /** The example worker, as a shop deploys it (support/worker.ts). */
  const startWorker = (port: number, flags?: string[]): Promise<Started> =>
    runWorker({ entryPoints: ['examples/cloudflare-worker.ts'] }, { port, bindings: variables(port), ...(flags ? { flags } : {}) });

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
      // Stopped means gone: an example left running holds its port and sweeps a sandbox that is no more.
      expect(await answers(base), `${name} still answers after it was stopped`).toBe(false);
    },
    60_000,
  );

  /**
   * Creates a payment at `base` and opens its event stream `count` times, each left after its first event as a
   * closed tab leaves it. Each stream holds one of its client's 10 slots until the proxy hears that its shopper
   * has gone (a reload, a phone changing networks), so more than 10 are let in only when every leaving is heard.
   */
  async function openAndLeaveStreams(base: string, count: number): Promise<void> {
    const created = await fetch(`${base}/payin/payments`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ orderId: `EX-left-${Date.now()}`, method: 'upi' }),
    });
    const { payment, token } = (await created.json()) as { payment: { id: string }; token: string };
    /** Opens the stream, takes its first event and leaves; false when refused. */
    const openAndLeave = async () => {
      const leaving = new AbortController();
      const stream = await fetch(`${base}/payin/events?paymentId=${payment.id}&token=${token}`, { signal: leaving.signal });
      if (stream.status === 200) await stream.body!.getReader().read();
      leaving.abort();
      return stream.status === 200;
    };
    // workerd delivers the abort when the stream next wakes, at its ping (8 s) at the latest.
    for (let shopper = 1; shopper <= count; shopper++) await until(openAndLeave, 15_000, `stream ${shopper} to be let in`);
  }

  it('lets go, on a Cloudflare worker deployed as its configuration says, of the event streams of shoppers who left', async () => {
    // workerd tells the proxy that a shopper left only with the enable_request_signal compatibility flag.
    const port = await freePort();
    const started = await startWorker(port);
    try {
      await openAndLeaveStreams(`http://127.0.0.1:${port}`, 12);
      expect(started.output()).not.toContain('enable_request_signal');
    } finally {
      await started.stop();
    }
  }, 60_000);

  it.each([
    ['as the table runs it', []],
    ['with --unstable-no-legacy-abort', ['--unstable-no-legacy-abort']],
  ])(
    'lets go, on Deno %s, of the event streams of shoppers who left',
    async (_how, flags) => {
      // Deno 2.9 aborts request.signal after every answer by default (its legacy behaviour) and says so once the
      // proxy listens to it; the proxy hears a shopper leave either way. The flag opts in to the new behaviour.
      const port = await freePort();
      const base = `http://127.0.0.1:${port}`;
      const [, command, args] = EXAMPLES.find(([name]) => name === 'Deno')!;
      const run = args.indexOf('run') + 1; // Deno's own flags go after `run`
      const started = await startProcess(command, [...args.slice(0, run), ...flags, ...args.slice(run)], port);
      try {
        await until(async () => (await fetch(`${base}/payin/sbp-banks/x`)).status === 404, 30_000, 'Deno to listen');
        await openAndLeaveStreams(base, 12);
        // The notice docs/runtimes.md quotes: printed as the table runs it, not with the flag.
        expect(started.output().includes('request.signal aborts on successful responses')).toBe(flags.length === 0);
      } finally {
        await started.stop();
      }
    },
    60_000,
  );

  it('warns a Cloudflare worker deployed without enable_request_signal that left streams are kept', async () => {
    const port = await freePort();
    const started = await startWorker(port, []);
    try {
      await until(async () => (await fetch(`http://127.0.0.1:${port}/payin/sbp-banks/x`)).status === 404, 10_000, 'the worker to answer');
      expect(started.output()).toContain('enable_request_signal');
    } finally {
      await started.stop();
    }
  }, 60_000);

  it('has a Next.js route module that loads without the PAYIN_* variables, as `next build` loads it', async () => {
    // `next build` imports every route module to read its settings (runtime, dynamic), where a shop's CI or Docker
    // build has none of its runtime secrets: a proxy made when the module loads stopped the build.
    // Beside the example (where examples/next/serve-route.mjs compiles it too), so that it finds the package.
    const outfile = join(root, 'examples/next/.build/route-loaded-by-build.mjs');
    await build({
      entryPoints: ['examples/next/app/payin/[...route]/route.ts'],
      absWorkingDir: root,
      outfile,
      format: 'esm',
      logLevel: 'error',
    });
    const env = Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith('PAYIN_')));
    const loaded = await new Promise<{ code: number | null; output: string }>((resolve) => {
      const child = spawn(
        process.execPath,
        [
          '--input-type=module',
          '-e',
          `const m = await import(${JSON.stringify(outfile)}); console.log(m.runtime, m.dynamic, typeof m.POST);`,
        ],
        {
          cwd: root,
          env,
          stdio: ['ignore', 'pipe', 'pipe'],
        },
      );
      let output = '';
      child.stdout.on('data', (chunk) => (output += chunk));
      child.stderr.on('data', (chunk) => (output += chunk));
      child.on('close', (code) => resolve({ code, output }));
    });
    expect(loaded).toEqual({ code: 0, output: 'nodejs force-dynamic function\n' });
  }, 60_000);

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
