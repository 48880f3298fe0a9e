/**
 * The demo pointed at a payment service of its own choosing through PAYIN_BASE_URL, PAYIN_MERCHANT_ID,
 * PAYIN_TOKEN, PAYIN_SECRET and PAYIN_CALLBACK_URL, as a shop with real credentials runs it. The service here is
 * a sandbox started apart (`payin-checkout sandbox`) with a merchant of its own, so that nothing of the demo's
 * public demo merchant can be what makes it work.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDemo, type DemoProcess } from './support/demo-process.js';
import { act, pendingPaymentOf, placeOrder, sandboxPayments, shopOrder, waitFor } from './support/services.js';

const REPO = fileURLToPath(new URL('../../', import.meta.url));
const MERCHANT = { id: 'shop-7', token: 'token-of-shop-7', secret: 'secret-of-shop-7' };

let service: { url: string; child: ChildProcess };
let demo: DemoProcess;

/** A port that was free a moment ago: the callback URL must be known before the demo starts. */
async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

async function startService(): Promise<{ url: string; child: ChildProcess }> {
  const child = spawn(
    process.execPath,
    ['dist/sandbox/cli.js', 'sandbox', '--port', '0', '--merchant', `${MERCHANT.id}:${MERCHANT.token}:${MERCHANT.secret}`],
    { cwd: REPO, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let output = '';
  child.stdout!.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
  const url = await waitFor('the service to listen', () => /listening on (http:\/\/\S+)/.exec(output)?.[1], 15_000).catch((error) => {
    child.kill('SIGKILL');
    throw error;
  });
  return { url, child };
}

beforeAll(async () => {
  service = await startService();
  const port = await freePort();
  demo = await startDemo({
    PORT: String(port),
    PAYIN_BASE_URL: service.url,
    PAYIN_MERCHANT_ID: MERCHANT.id,
    PAYIN_TOKEN: MERCHANT.token,
    PAYIN_SECRET: MERCHANT.secret,
    PAYIN_CALLBACK_URL: `http://127.0.0.1:${port}/payin/callback`,
  });
});

afterAll(async () => {
  await demo?.stop();
  if (service && service.child.exitCode === null) {
    const exited = new Promise((resolve) => service.child.once('exit', resolve));
    service.child.kill('SIGTERM');
    await exited;
  }
});

describe('the demo with PAYIN_* set', () => {
  it('starts no sandbox of its own and takes a payment through the given service', async () => {
    expect(demo.output()).not.toMatch(/Sandbox console/);
    const order = await placeOrder(demo.storeUrl);
    const created = await fetch(`${demo.storeUrl}/payin/payments`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ orderId: order.id, method: 'upi' }),
    });
    expect(created.status).toBe(201);

    const payment = await pendingPaymentOf(service.url, order.id, 'upi');
    const [atService] = (await sandboxPayments(service.url)) as unknown as { merchantId: string; callbackUri: string }[];
    expect(atService).toMatchObject({ merchantId: MERCHANT.id, callbackUri: `${demo.storeUrl}/payin/callback` });

    await act(service.url, payment.id, 'pay');
    const paid = await waitFor('the shop to mark the order paid', async () => {
      const current = await shopOrder(demo.storeUrl, order.id);
      return current.status === 'paid' ? current : undefined;
    });
    expect(paid.paid).toMatchObject({ paymentId: payment.id, amount: payment.amount, currency: payment.currency });
  });

  it('refuses to start with PAYIN_BASE_URL alone, naming every missing setting', async () => {
    const error = await startDemo({ PAYIN_BASE_URL: service.url }).then(
      async (unexpected) => {
        await unexpected.stop();
        return undefined;
      },
      (reason: Error) => reason,
    );
    expect(error?.message).toMatch(/PAYIN_MERCHANT_ID is not set/);
    expect(error?.message).toMatch(/PAYIN_TOKEN is not set/);
    expect(error?.message).toMatch(/PAYIN_SECRET is not set/);
    expect(error?.message).toMatch(/PAYIN_CALLBACK_URL is not set/);
  });
});
