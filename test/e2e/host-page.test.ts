/**
 * The script-tag checkout on pages that are not a clean demo: pages whose own scripts replace built-ins the core
 * relies on, send a Trusted Types policy, or serve the script from another origin. On each, a shopper on a phone
 * pays in Hindi (so that the phone, app-chooser and results parts and a language file all load beside the core),
 * and the page logs no error. Reads the files the build wrote; run `npm run build` first (the test command does).
 */
import { fileURLToPath } from 'node:url';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cspViolations, launchBrowser, newContext } from './support/browser.js';
import { type BundledShop, startBundledShop } from './support/bundled-shop.js';
import { PHONE_SCREEN, USER_AGENTS } from './support/phone.js';
import { act, pendingPaymentOf, sandboxPayments } from './support/services.js';
import { waitForScreen } from './support/shopper.js';

const DIST = fileURLToPath(new URL('../../dist', import.meta.url));
const PHONE = { viewport: PHONE_SCREEN, isMobile: true, hasTouch: true, userAgent: USER_AGENTS.android };

let browser: Browser;
let shop: BundledShop;
beforeAll(async () => {
  browser = await launchBrowser();
  // Each test serves its own page at /checkout; the shop serves the built files and the proxy.
  shop = await startBundledShop('', DIST);
});
afterAll(async () => {
  await browser?.close();
  await shop?.close();
});

let orders = 0;

/**
 * Opens `head` (the page's own tags before the checkout) with an element for a new order on a phone, in Hindi;
 * the page is sent with `headers`. Pays once the app chooser is there; answers what the page logged as errors.
 */
async function payOnPage(head: string, headers: Record<string, string> = {}): Promise<{ errors: string[]; violations: string[] }> {
  const orderId = `HOST-${++orders}-${Date.now()}`;
  const context = await newContext(browser, PHONE);
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  await page.route(`${shop.url}/checkout`, (route) =>
    route.fulfill({
      contentType: 'text/html; charset=utf-8',
      headers,
      body: `<!doctype html><html lang="en"><meta name="viewport" content="width=device-width">${head}
        <payin-checkout endpoint="/payin" order-id="${orderId}" method="upi" lang="hi" autostart></payin-checkout></html>`,
    }),
  );
  await page.goto(`${shop.url}/checkout`);
  await waitForScreen(page, 'pay');
  await page.locator('payin-checkout [part~="app-link"]').first().waitFor();
  expect(await page.locator('payin-checkout [part~="base"]').getAttribute('lang')).toBe('hi');
  const payment = await pendingPaymentOf(shop.sandboxUrl, orderId);
  await act(shop.sandboxUrl, payment.id, 'pay');
  await waitForScreen(page, 'paid');
  await page.locator('payin-checkout [part~="paid-amount"]').waitFor();
  expect((await sandboxPayments(shop.sandboxUrl)).filter((p) => p.orderId === orderId)).toHaveLength(1);
  const violations = await cspViolations(page);
  await context.close();
  return { errors, violations };
}

const CORE = '<script src="/payin-checkout.iife.js"></script>';

describe('the script-tag checkout on a page that changes built-ins', () => {
  it('draws its language and parts on a page that replaced window.Promise (a polyfill, Bluebird)', async () => {
    // What a promise library installed as the page's Promise does: the browser's own promises are no longer `instanceof Promise`.
    const { errors } = await payOnPage(`<script>window.Promise = class ShopPromise extends Promise {};</script>${CORE}`);
    expect(errors).toEqual([]);
  });
});
