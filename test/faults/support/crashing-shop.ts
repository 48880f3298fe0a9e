/**
 * A shop's server (crash-proxy.mjs) as a process of its own before the real sandbox over loopback, killed with
 * SIGKILL at one chosen moment and started again on its port and store, as a supervisor restarts a crashed
 * process. What its hook heard is read from a file the hook writes synchronously, so it outlives the kill.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createSandbox, DEMO_MERCHANT, type Sandbox } from '../../../src/sandbox/index.js';
import { serve, type RunningServer } from '../../../src/server/serve.js';
import { seeded } from '../../proxy/sandbox-harness.js';
import { freePort } from '../../support/free-port.js';

const SCRIPT = fileURLToPath(new URL('./crash-proxy.mjs', import.meta.url));
const STARTED_WITHIN_MS = 20_000;
/**
 * The server's leases (an order's claim, a hook's, a sweep's) and how often it sweeps: short, so that a restart takes
 * over what the killed process held within a second. Leases are renewed while their work runs, so a short one
 * lapses only when its holder is gone.
 */
export const LEASE_MS = 600;
export const RECONCILE_EVERY_MS = 200;
/** A wait in which whatever the killed process left would be heard: its leases lapse, and two sweeps run after. */
export const QUIET_MS = LEASE_MS + 2 * RECONCILE_EVERY_MS;

export type CrashPoint =
  | 'after-create'
  | 'after-record'
  | 'in-hook'
  | 'in-sweep'
  | 'in-redelivery'
  | 'in-sweep-after-paid'
  | 'in-second-mark';

/** How the server is started: where the service sends callbacks (default: to it), and more of crash-proxy.mjs's variables. */
export interface StartSettings {
  callbackUrl?: string;
  env?: Record<string, string>;
}

export interface CrashingShop {
  sandbox: Sandbox;
  url: string;
  /** Starts the server and resolves once it listens. */
  start(settings?: StartSettings): Promise<void>;
  /** Starts the server and resolves once it listens, with `crashAt` armed for later. */
  startArmed(crashAt: CrashPoint, settings?: StartSettings): Promise<{ reached: Promise<void> }>;
  /** kill -9, then waits for the exit. */
  kill(): Promise<void>;
  /** A JSON POST to the running server's route `path` under /payin, on a new connection. */
  post(path: string, body: unknown): Promise<{ status: number; body: any }>;
  /** The hook's calls so far: `called <id> <state> <outcome>` on entry, `done ...` on return. */
  hookLines(): string[];
  output(): string;
  close(): Promise<void>;
}

/** The payment service the shops stand before: the real sandbox, served over loopback. */
export interface Service {
  sandbox: Sandbox;
  server: RunningServer;
}

export async function startService(): Promise<Service> {
  const sandbox = createSandbox({ requisitesDelayMs: 0, callbackRetryDelayMs: 100, callbackAttempts: 3, random: seeded(3) });
  return { sandbox, server: await serve(sandbox) };
}

/** A shop on `storeUrl`, before `service` when given (several shops on one service), else a service of its own. */
export async function crashingShop(options: { build: string; storeUrl: string; service?: Service }): Promise<CrashingShop> {
  const own = options.service === undefined;
  const { sandbox, server: service } = options.service ?? (await startService());
  const port = await freePort();
  const dir = mkdtempSync(join(options.build, '..', 'crash-'));
  const hookLog = join(dir, 'hook.log');
  const url = `http://127.0.0.1:${port}`;
  let child: ChildProcess | undefined;
  let output = '';

  const launch = (crashAt: string, { callbackUrl = '', env = {} }: StartSettings) => {
    const started = spawn(process.execPath, [SCRIPT, options.build], {
      env: {
        PATH: process.env.PATH ?? '',
        PORT: String(port),
        SERVICE_URL: service.url,
        PAYIN_MERCHANT_ID: DEMO_MERCHANT.id,
        PAYIN_TOKEN: DEMO_MERCHANT.token,
        PAYIN_SECRET: DEMO_MERCHANT.secret,
        PAYIN_STORE_URL: options.storeUrl,
        HOOK_LOG: hookLog,
        CRASH_AT: crashAt,
        CALLBACK_URL: callbackUrl,
        LEASE_MS: String(LEASE_MS),
        RECONCILE_EVERY_MS: String(RECONCILE_EVERY_MS),
        ...env,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child = started;
    let mine = '';
    const seen = (words: string) =>
      new Promise<void>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`the shop's server did not say "${words}":\n${mine}`)), STARTED_WITHIN_MS);
        const read = () => {
          if (!mine.includes(words)) return;
          clearTimeout(timer);
          resolve();
        };
        started.stdout!.on('data', read);
        started.once('exit', (code, signal) => {
          clearTimeout(timer);
          reject(new Error(`the shop's server exited (${code ?? signal}) before it said "${words}":\n${mine}`));
        });
      });
    const keep = (chunk: Buffer) => {
      mine += chunk;
      output = (output + chunk).slice(-20_000);
    };
    started.stdout!.on('data', keep);
    started.stderr!.on('data', keep);
    return seen;
  };

  const shop: CrashingShop = {
    sandbox,
    url,
    async start(settings = {}) {
      const seen = launch('', settings);
      await seen('listening');
    },
    async startArmed(crashAt, settings = {}) {
      const seen = launch(crashAt, settings);
      const reached = seen(`crash point ${crashAt}`);
      reached.catch(() => {}); // awaited by the test; a rejection before then is not unhandled
      await seen('listening');
      return { reached };
    },
    async kill() {
      const dying = child;
      if (!dying || dying.exitCode !== null || dying.signalCode !== null) return;
      const exited = new Promise<void>((done) => dying.once('exit', () => done()));
      dying.kill('SIGKILL');
      await exited;
    },
    post: (path, body) => postJson(`${url}/payin${path}`, body),
    hookLines: () => (existsSync(hookLog) ? readFileSync(hookLog, 'utf8').split('\n').filter(Boolean) : []),
    output: () => output,
    async close() {
      await shop.kill();
      if (!own) return;
      sandbox.close();
      await service.close();
    },
  };
  return shop;
}

/** The shopper's Pay pressed again while the answer is a retryable 5xx (a lease held elsewhere), at most 10 s. */
export async function createUntilAnswered(shop: CrashingShop, orderId: string): Promise<{ status: number; body: any }> {
  const end = Date.now() + 10_000;
  for (;;) {
    const answer = await shop.post('/payments', { orderId, method: 'upi' });
    if (answer.status < 500 || Date.now() > end) return answer;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

/** How many of the hook's `lines` say it was called (`called`) or returned (`done`) with payment `id` paid. */
export function heardPaid(lines: string[], word: 'called' | 'done', id: string): number {
  return lines.filter((line) => line.startsWith(`${word} ${id} `) && line.endsWith(' paid')).length;
}

/** A JSON POST on a connection of its own (never a pooled socket of a killed server): status and body. */
async function postJson(url: string, body: unknown): Promise<{ status: number; body: any }> {
  const answer = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', connection: 'close' },
    body: JSON.stringify(body),
  });
  const text = await answer.text();
  return { status: answer.status, body: text ? JSON.parse(text) : undefined };
}
