/**
 * The sandbox's hosted payment page (`/pay/{id}`, the create answer's `url`) in Chromium, against the sandbox on a
 * loopback socket: what the payer's buttons do to the payment, as the service's own page would.
 */
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSandbox, DEMO_MERCHANT, type Sandbox } from '../../src/sandbox/index.js';
import { serve, type RunningServer } from '../../src/server/serve.js';
import { signBody } from '../../src/shared/hmac.js';
import { launchBrowser, newContext } from './support/browser.js';
import { waitFor } from './support/services.js';

let browser: Browser;
let sandbox: Sandbox;
let server: RunningServer;

beforeAll(async () => {
  browser = await launchBrowser();
  sandbox = createSandbox({ requisitesDelayMs: 0 });
  server = await serve(sandbox);
});

afterAll(async () => {
  sandbox.close();
  await server.close();
  await browser.close();
});

async function createPayment(orderId: string): Promise<{ id: string; url: string }> {
  const body = JSON.stringify({
    amount: '499.00',
    orderId,
    currency: 'INR',
    method: 'upi',
    merchantId: DEMO_MERCHANT.id,
    callbackUri: 'http://127.0.0.1:9/payin/callback',
  });
  const response = await fetch(`${server.url}/api/v2/payments`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      authorization: `Bearer ${DEMO_MERCHANT.token}`,
      signature: await signBody(DEMO_MERCHANT.secret, body),
    },
    body,
  });
  const answer = (await response.json()) as { result: { id: string }; url: string };
  return { id: answer.result.id, url: answer.url };
}

describe("the sandbox's hosted payment page", () => {
  it('takes "I have paid" as the payer\'s claim: the payment turns in_check, not paid', async () => {
    const { id, url } = await createPayment('PAGE-1');
    await waitFor('the payee assigned', () => sandbox.payment(id)?.state === 'pending' || undefined);
    const context = await newContext(browser);
    const page = await context.newPage();
    await page.goto(url);
    await page.getByText('pending', { exact: true }).waitFor();
    await page.getByRole('button', { name: 'I have paid' }).click();
    await page.getByText('in_check', { exact: true }).waitFor();
    expect(sandbox.payment(id)!.state).toBe('in_check');
    await page.getByText(/being checked/).waitFor();
    await context.close();
  });
});
