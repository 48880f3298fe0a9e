/**
 * A shop whose backend is Python (demo/python-shop, standard library only) takes a payment through the standalone
 * proxy server: its page renders the element with a signed order token, the shopper's Chromium shows the QR, the
 * payer pays in the sandbox, the element says paid, and the Python shop marks the order paid from a webhook it
 * verified itself, exactly once; and a shopper who kept the token of a smaller cart, and paid it after the cart grew,
 * does not get the bigger order shipped.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSandbox, DEMO_MERCHANT } from '../../src/sandbox/index.js';
import { serve, type RunningServer } from '../../src/server/index.js';
import { readStandaloneConfig, startStandalone, type StandaloneServer } from '../../src/standalone/index.js';
import { launchBrowser, newContext } from './support/browser.js';
import { newPhoneContext } from './support/phone.js';
import { act, pendingPaymentOf, waitFor } from './support/services.js';
import { waitForScreen } from './support/shopper.js';
import { freePort } from '../support/free-port.js';

const root = fileURLToPath(new URL('../..', import.meta.url));
const WEBHOOK_SECRET = `whsec_${Buffer.from('the python shop shares this').toString('base64')}`;
const TOKEN_SECRET = 'python-shop-order-token-key';

describe('a Python shop through the standalone proxy', () => {
  const dir = mkdtempSync(join(tmpdir(), 'payin-python-shop-'));
  const sandbox = createSandbox({ requisitesDelayMs: 0, callbackRetryDelayMs: 200 });
  let service: RunningServer;
  let proxy: StandaloneServer;
  let shop: ChildProcess;
  let shopUrl: string;
  let browser: Browser;

  beforeAll(async () => {
    service = await serve(sandbox);
    const [proxyPort, shopPort] = [await freePort(), await freePort()];
    shopUrl = `http://127.0.0.1:${shopPort}`;
    const config = readStandaloneConfig({
      PORT: String(proxyPort),
      PAYIN_BASE_URL: service.url,
      PAYIN_MERCHANT_ID: DEMO_MERCHANT.id,
      PAYIN_TOKEN: DEMO_MERCHANT.token,
      PAYIN_SECRET: DEMO_MERCHANT.secret,
      PAYIN_CALLBACK_URL: `http://127.0.0.1:${proxyPort}/payin/callback`,
      PAYIN_ORDER_TOKEN_SECRET: TOKEN_SECRET,
      PAYIN_WEBHOOK_URL: `${shopUrl}/payin-webhook`,
      PAYIN_WEBHOOK_SECRET: WEBHOOK_SECRET,
      PAYIN_ALLOWED_ORIGINS: shopUrl,
      PAYIN_STORE_URL: `sqlite:${join(dir, 'payin.db')}`,
    });
    proxy = await startStandalone(config, { log: () => {} });
    shop = spawn('python3', ['demo/python-shop/shop.py'], {
      cwd: root,
      env: {
        ...process.env,
        PORT: String(shopPort),
        PAYIN_PROXY_URL: proxy.url,
        PAYIN_ORDER_TOKEN_SECRET: TOKEN_SECRET,
        PAYIN_WEBHOOK_SECRET: WEBHOOK_SECRET,
        WIDGET_JS: join(root, 'dist/payin-checkout.iife.js'),
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    await waitFor('the Python shop to listen', async () =>
      (await fetch(`${shopUrl}/orders/none`).catch(() => undefined))?.status === 404 ? true : undefined,
    );
    browser = await launchBrowser();
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    shop?.kill('SIGTERM');
    await proxy?.close();
    sandbox.close();
    await service?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('takes a UPI payment to "paid" in the element and in the Python shop, announced once', async () => {
    const context = await newContext(browser);
    const page = await context.newPage();
    await page.goto(`${shopUrl}/checkout/PY-1`);
    await waitForScreen(page, 'pay');
    const payment = await pendingPaymentOf(service.url, 'PY-1', 'upi');
    expect(payment.amount).toBe('499.00');
    await act(service.url, payment.id, 'pay');
    await waitForScreen(page, 'paid');
    const order = await waitFor('the Python shop to mark the order paid', async () => {
      const answer = (await (await fetch(`${shopUrl}/orders/PY-1`)).json()) as { status: string; announcements: { outcome: string }[] };
      return answer.status === 'paid' ? answer : undefined;
    });
    await sandbox.idle();
    expect(order.announcements.filter((a) => a.outcome === 'paid')).toHaveLength(1);
    await context.close();
  }, 60_000);

  it('does not ship an order paid by the token of its older, smaller total', async () => {
    const tokenOf = async (orderId: string) =>
      /order-token="([^"]+)"/.exec(await (await fetch(`${shopUrl}/checkout/${orderId}`)).text())![1]!;
    const smaller = await tokenOf('PY-CART');
    // The cart grows in another tab, whose checkout page is rendered with the new total.
    expect((await fetch(`${shopUrl}/orders/PY-CART/items`, { method: 'POST' })).status).toBe(200);
    expect(await tokenOf('PY-CART')).not.toBe(smaller);
    // The kept page's token is still a good quote until it expires: the proxy makes a payment of the old total.
    const created = await fetch(`${proxy.url}/payin/payments`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ orderId: 'PY-CART', method: 'upi', orderToken: smaller }),
    });
    expect(created.status).toBe(201);
    const { payment } = (await created.json()) as { payment: { id: string; amount: string } };
    expect(payment.amount).toBe('499.00');
    await act(service.url, payment.id, 'pay');
    const order = await waitFor('the Python shop to hear the payment', async () => {
      const answer = (await (await fetch(`${shopUrl}/orders/PY-CART`)).json()) as { status: string; announcements: { outcome: string }[] };
      return answer.announcements.some((a) => a.outcome === 'paid') ? answer : undefined;
    });
    expect(order.status).toBe('paid-less-than-total');
  }, 60_000);

  it('gives a shopper on a phone the UPI apps to pay with, not a QR to scan with that same phone', async () => {
    // The element loads its phone parts from beside its script: the shop must serve them as it serves the script.
    const context = await newPhoneContext(browser, 'android', service.url);
    const page = await context.newPage();
    await page.goto(`${shopUrl}/checkout/PY-PHONE`);
    await waitForScreen(page, 'pay');
    await expect.poll(() => page.locator('payin-checkout [part="app-link"]').count(), { timeout: 10_000 }).toBeGreaterThan(0);
    await context.close();
  }, 60_000);
});
