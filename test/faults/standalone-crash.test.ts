/**
 * The standalone server killed with SIGKILL while it tells the shop's backend that a payment is paid (the
 * backend holds the webhook open), then started again on its SQLite file. The backend is told again, with the
 * same webhook-id (so a Standard Webhooks receiver that had acted on the first one drops the repeat), and once
 * it answers 2xx it is told no more.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { join } from 'node:path';
import { Webhook } from 'standardwebhooks';
import { afterEach, describe, expect, it } from 'vitest';
import { createSandbox } from '../../src/sandbox/index.js';
import { serve } from '../../src/server/serve.js';
import { eventually } from '../proxy/sandbox-harness.js';
import { useCompiledCli } from '../support/compiled-cli.js';
import { LEASE_MS, RECONCILE_EVERY_MS, standaloneProcess, WEBHOOK_SECRET } from './support/storm-cluster.js';

const build = useCompiledCli();
const closing: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const close of closing.splice(0).reverse()) await close();
});

const PRICE = '{"amount":"499.00","currency":"INR"}';

interface Heard {
  id: string;
  outcome: string;
  answer: ServerResponse;
}

/** The shop's backend: 499.00 INR for every order; each verified webhook kept with its response, left to the test to answer. */
async function startBackend(): Promise<{ url: string; heard: Heard[] }> {
  const verifier = new Webhook(WEBHOOK_SECRET);
  const heard: Heard[] = [];
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    let body = '';
    req.on('data', (chunk) => (body += chunk));
    req.on('end', () => {
      if (req.url === '/price') return void res.writeHead(200, { 'content-type': 'application/json' }).end(PRICE);
      const { data } = verifier.verify(body, req.headers as Record<string, string>) as { data: { outcome: string } };
      const entry = { id: String(req.headers['webhook-id']), outcome: data.outcome, answer: res };
      heard.push(entry);
      if (data.outcome !== 'paid') res.writeHead(204).end();
    });
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  closing.push(() => {
    server.closeAllConnections();
    return new Promise((done) => server.close(() => done()));
  });
  return { url: `http://127.0.0.1:${(server.address() as { port: number }).port}`, heard };
}

describe('the standalone server killed while it tells the backend', () => {
  it('tells the backend "paid" again after the restart, with the same webhook-id, and no more once answered', async () => {
    const sandbox = createSandbox({ requisitesDelayMs: 0, callbackRetryDelayMs: 100, callbackAttempts: 3 });
    const service = await serve(sandbox);
    closing.push(async () => {
      sandbox.close();
      await service.close();
    });
    const backend = await startBackend();
    const server = await standaloneProcess({
      build: build.build,
      cwd: build.dir,
      serviceUrl: service.url,
      backendUrl: backend.url,
      storeUrl: `sqlite:${join(build.dir, 'standalone-crash.db')}`,
    });
    closing.push(() => server.kill());
    await server.start();
    const created = await fetch(`${server.url}/payin/payments`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"orderId":"S-1","method":"upi"}',
    });
    const { payment } = (await created.json()) as { payment: { id: string } };
    sandbox.act(payment.id, 'pay');
    const paid = () => backend.heard.filter((h) => h.outcome === 'paid');
    await eventually(() => paid().length === 1, 10_000, 'the backend to be told "paid"');

    await server.kill(); // the backend holds the webhook open: the server dies before it hears the answer
    paid()[0]!.answer.destroy();
    await server.start();
    await eventually(() => paid().length === 2, 15_000, 'the backend to be told "paid" again after the restart');
    paid()[1]!.answer.writeHead(204).end();
    expect(paid()[1]!.id).toBe(paid()[0]!.id);
    // Its lapsed leases and the two sweeps after them bring nothing more once the backend has answered.
    await new Promise((resolve) => setTimeout(resolve, LEASE_MS + 2 * RECONCILE_EVERY_MS));
    expect(paid().map((h) => h.id)).toEqual([`msg_${payment.id}_finished`, `msg_${payment.id}_finished`]);
  }, 90_000);
});
