/**
 * The cluster the storms run: the payment service (the real sandbox, duplicating and reordering its callbacks),
 * the shop's backend (prices every order, verifies every webhook and counts them), and standalone proxy servers,
 * each a process of its own on a fixed loopback port, all on one store URL. A server can be killed with SIGKILL
 * and started again on its port, as a supervisor restarts a crashed process.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import { fileURLToPath } from 'node:url';
import { Webhook } from 'standardwebhooks';
import { createSandbox, DEMO_MERCHANT, type Sandbox } from '../../../src/sandbox/index.js';
import { serve, type RunningServer } from '../../../src/server/serve.js';
import { seeded } from '../../proxy/sandbox-harness.js';
import { freePort } from '../../support/free-port.js';

export const WEBHOOK_SECRET = `whsec_${Buffer.from('the cluster storm shares this one').toString('base64')}`;
export const SERVER_SCRIPT = fileURLToPath(new URL('./storm-server.mjs', import.meta.url));
/**
 * The servers' leases (an order's claim, a webhook's, a sweep's) and the time between their sweeps: what a killed
 * server held is taken over about this long after the kill. A lease is renewed every third of it while its work
 * runs, so it lapses only when its holder is gone.
 */
export const LEASE_MS = 1_500;
export const RECONCILE_EVERY_MS = 1_000;

export interface ProxyProcess {
  url: string;
  /** kill -9, then waits for the exit. */
  kill(): Promise<void>;
  /** Starts it (again) on its port and resolves once it listens. */
  start(): Promise<void>;
  /** SIGTERM, the graceful shutdown. */
  stop(): Promise<void>;
  output(): string;
  /** Whether the process started last is still running (it has not crashed). */
  running(): boolean;
}

/**
 * The standalone server (SERVER_SCRIPT, from the compiled `build`) on a free port, not started yet: signing for the
 * demo merchant at `serviceUrl`, asking prices of and telling the shop's backend at `backendUrl` (its /price and
 * /webhook, with WEBHOOK_SECRET), its ledger at `storeUrl`.
 */
export async function standaloneProcess(options: {
  build: string;
  cwd: string;
  serviceUrl: string;
  backendUrl: string;
  storeUrl: string;
}): Promise<ProxyProcess> {
  const port = await freePort();
  const env = {
    PATH: process.env.PATH ?? '',
    PORT: String(port),
    PAYIN_BASE_URL: options.serviceUrl,
    PAYIN_MERCHANT_ID: DEMO_MERCHANT.id,
    PAYIN_TOKEN: DEMO_MERCHANT.token,
    PAYIN_SECRET: DEMO_MERCHANT.secret,
    PAYIN_CALLBACK_URL: `http://127.0.0.1:${port}/payin/callback`,
    PAYIN_RESOLVE_URL: `${options.backendUrl}/price`,
    PAYIN_WEBHOOK_URL: `${options.backendUrl}/webhook`,
    PAYIN_WEBHOOK_SECRET: WEBHOOK_SECRET,
    PAYIN_STORE_URL: options.storeUrl,
    LEASE_MS: String(LEASE_MS),
    RECONCILE_EVERY_MS: String(RECONCILE_EVERY_MS),
  };
  return proxyProcess(`http://127.0.0.1:${port}`, [SERVER_SCRIPT, options.build], env, options.cwd);
}

export interface Cluster {
  sandbox: Sandbox;
  servers: ProxyProcess[];
  /** Every callback the service sent, to replay. */
  delivered: { url: string; body: string; signature: string }[];
  /** Webhooks the shop verified and accepted, in order: webhook-id and the payment. */
  webhooks: { id: string; payment: { id: string; state: string; outcome: string; final: boolean } }[];
  close(): Promise<void>;
}

export async function startCluster(options: { build: string; cwd: string; storeUrl: string; servers: number }): Promise<Cluster> {
  const delivered: Cluster['delivered'] = [];
  const sandbox = createSandbox({
    requisitesDelayMs: 0,
    callbackRetryDelayMs: 100,
    reorderDelayMs: 30,
    random: seeded(7),
    faults: { duplicateCallbacks: true, reorderCallbacks: true },
    fetch: async (input, init) => {
      const headers = new Headers(init?.headers);
      delivered.push({ url: String(input), body: String(init?.body ?? ''), signature: headers.get('signature') ?? '' });
      return fetch(input, init);
    },
  });
  const service: RunningServer = await serve(sandbox);
  const webhooks: Cluster['webhooks'] = [];
  const shop = await startShop(webhooks);
  const servers: ProxyProcess[] = [];
  for (let i = 0; i < options.servers; i++) {
    servers.push(await standaloneProcess({ ...options, serviceUrl: service.url, backendUrl: shop.url }));
  }
  await Promise.all(servers.map((server) => server.start()));
  return {
    sandbox,
    servers,
    delivered,
    webhooks,
    close: async () => {
      await Promise.all(servers.map((server) => server.stop()));
      sandbox.close();
      await service.close();
      await new Promise((done) => shop.server.close(done));
    },
  };
}

export function proxyProcess(url: string, args: string[], env: Record<string, string>, cwd: string): ProxyProcess {
  let child: ChildProcess | undefined;
  let output = '';
  const exited = (c: ChildProcess) =>
    new Promise<void>((done) => (c.exitCode !== null || c.signalCode !== null ? done() : c.once('exit', () => done())));
  return {
    url,
    output: () => output,
    running: () => child !== undefined && child.exitCode === null && child.signalCode === null,
    async start() {
      const started = spawn(process.execPath, args, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
      child = started;
      let mine = '';
      await new Promise<void>((resolve, reject) => {
        const read = (chunk: Buffer) => {
          mine += chunk;
          output = (output + chunk).slice(-20_000);
          if (mine.includes('webhooks to')) resolve();
        };
        started.stdout!.on('data', read);
        started.stderr!.on('data', read);
        started.once('exit', (code) => reject(new Error(`the proxy server exited (${code}) before it listened:\n${mine}`)));
      });
    },
    async kill() {
      if (!child) return;
      const dying = child;
      dying.kill('SIGKILL');
      await exited(dying);
    },
    async stop() {
      if (!child) return;
      const stopping = child;
      stopping.kill('SIGTERM');
      await exited(stopping);
    },
  };
}

/** The shop's backend: 499.00 INR for every order; webhooks verified, then kept. */
async function startShop(webhooks: Cluster['webhooks']): Promise<{ server: Server; url: string }> {
  const verifier = new Webhook(WEBHOOK_SECRET);
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk) => (body += chunk));
    req.on('end', () => {
      let verified: { data: Cluster['webhooks'][number]['payment'] };
      try {
        verified = verifier.verify(body, req.headers as Record<string, string>) as typeof verified;
      } catch {
        return void res.writeHead(401).end();
      }
      if (req.url === '/webhook') {
        webhooks.push({ id: String(req.headers['webhook-id']), payment: verified.data });
        return void res.writeHead(204).end();
      }
      res.writeHead(200, { 'content-type': 'application/json' }).end('{"amount":"499.00","currency":"INR"}');
    });
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  return { server, url: `http://127.0.0.1:${(server.address() as { port: number }).port}` };
}
