/**
 * The other two ways onto a page: the shop served with a strict Content-Security-Policy (no violation may be
 * reported while a payment goes through) and the React 19 app, which passes properties and listens to the
 * element's events natively.
 */
import type { ConsoleMessage } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { cspViolations, newContext } from './support/browser.js';
import { useDemo } from './support/use-demo.js';
import { act, pendingPaymentOf } from './support/services.js';
import {
  checkoutInReact,
  checkoutOnShop,
  expectOneFinalEvent,
  expectPaidAndAnnouncedOnce,
  expectShopListShows,
  payInConsole,
  waitForScreen,
} from './support/shopper.js';

const live = useDemo();

describe('the strict-CSP shop', () => {
  it('takes a payment without a single policy violation', async () => {
    const context = await newContext(live.browser);
    const page = await context.newPage();
    const refused: string[] = [];
    page.on('console', (m: ConsoleMessage) => {
      if (/Content Security Policy|Refused to/i.test(m.text())) refused.push(m.text());
    });
    const answer = await page.goto(`${live.demo.storeUrl}/strict`);
    expect(answer?.headers()['content-security-policy']).toContain("script-src 'self'");
    const orderId = await checkoutOnShop(page, live.demo.storeUrl, '/strict', 'upi');
    await waitForScreen(page, 'pay');
    await page.locator('payin-checkout [part="qr"]').waitFor();
    await payInConsole(context, live.demo.sandboxUrl, orderId);
    await waitForScreen(page, 'paid');
    await expectShopListShows(page, orderId, 'paid');

    expect(await cspViolations(page)).toEqual([]);
    expect(refused).toEqual([]);
    await context.close();
  });
});

describe('the languages beside the script', () => {
  it('loads only the language the element speaks, from beside the script, under the strict policy', async () => {
    const context = await newContext(live.browser);
    const page = await context.newPage();
    const scripts: string[] = [];
    page.on('request', (r) => {
      if (/\/payin-checkout\.[a-z]+\.js$/.test(new URL(r.url()).pathname)) scripts.push(new URL(r.url()).pathname);
    });
    await checkoutOnShop(page, live.demo.storeUrl, '/strict', 'sbp');
    await waitForScreen(page, 'pay');
    await expect.poll(() => page.locator('payin-checkout [part="amount"]').textContent()).toMatch(/Amount/);
    expect(scripts).toEqual(['/payin-checkout.iife.js']);

    await page.goto(`${page.url()}&lang=ru`);
    await waitForScreen(page, 'pay');
    await expect.poll(() => page.locator('payin-checkout [part="amount"]').textContent()).toMatch(/Сумма/);
    expect(scripts.slice(1)).toEqual(['/payin-checkout.iife.js', '/payin-checkout.ru.js']);
    expect(await cspViolations(page)).toEqual([]);
    await context.close();
  });

  it('speaks Urdu right to left from its file beside the script, and takes a shop’s texts by their keys', async () => {
    const context = await newContext(live.browser);
    const page = await context.newPage();
    await checkoutOnShop(page, live.demo.storeUrl, '/strict', 'upi');
    await page.goto(`${page.url()}&lang=ur`);
    await waitForScreen(page, 'pay');
    const base = page.locator('payin-checkout [part="base"]');
    await expect.poll(() => page.locator('payin-checkout [part="amount"]').textContent()).toMatch(/رقم/);
    expect(await base.evaluate((el) => getComputedStyle(el).direction)).toBe('rtl');
    // The script-tag build keeps the translation keys' names, so a shop's texts find them.
    await page.evaluate(() => {
      const checkout = document.querySelector('payin-checkout') as Element & { texts: unknown };
      checkout.texts = { amountLabel: 'کل رقم', headings: { pay: 'QR اسکین کریں' } };
    });
    await expect.poll(() => page.locator('payin-checkout [part="amount"]').textContent()).toContain('کل رقم');
    expect(await page.locator('payin-checkout [part="heading"]').textContent()).toBe('QR اسکین کریں');
    expect(await cspViolations(page)).toEqual([]);
    await context.close();
  });

  it('shows English, and says why, when the language file is not beside the script', async () => {
    const context = await newContext(live.browser);
    const page = await context.newPage();
    const warnings: string[] = [];
    page.on('console', (m: ConsoleMessage) => {
      if (m.type() === 'warning') warnings.push(m.text());
    });
    await page.route('**/payin-checkout.hi.js', (route) => route.fulfill({ status: 404, body: 'not found' }));
    await checkoutOnShop(page, live.demo.storeUrl, '/shop', 'upi');
    await page.goto(`${page.url()}&lang=hi`);
    await waitForScreen(page, 'pay');
    await expect.poll(() => page.locator('payin-checkout [part="amount"]').textContent()).toMatch(/Amount/);
    expect(warnings.join('\n')).toContain('the "hi" texts did not load');
    await context.close();
  });

  it('speaks the language the shopper switched to on a poor network once the phone is back online', async () => {
    const context = await newContext(live.browser);
    const page = await context.newPage();
    const fetched: string[] = [];
    page.on('request', (r) => {
      if (r.url().endsWith('/payin-checkout.hi.js')) fetched.push(r.url());
    });
    await page.route('**/payin-checkout.hi.js', (route) => route.abort('internetdisconnected'));
    await checkoutOnShop(page, live.demo.storeUrl, '/shop', 'upi');
    await waitForScreen(page, 'pay');
    // The shop's language switch, in the middle of the payment, while the network is gone.
    await page.evaluate(() => document.documentElement.setAttribute('lang', 'hi'));
    await expect.poll(() => fetched.length).toBe(1);
    await page.unroute('**/payin-checkout.hi.js');
    await context.setOffline(true);
    await context.setOffline(false);
    // The countdown draws the screen every second, and that draw asks for the texts again.
    await expect.poll(() => page.locator('payin-checkout [part="amount"]').textContent(), { timeout: 10_000 }).toContain('राशि');
    expect(fetched).toHaveLength(2);
    await context.close();
  });
});

describe('the React app', () => {
  it('completes a payment with the element driven by React props and events', async () => {
    const context = await newContext(live.browser);
    const page = await context.newPage();
    const orderId = await checkoutInReact(page, live.demo.storeUrl);
    expect(orderId).toMatch(/^A-/);

    const payment = await pendingPaymentOf(live.demo.sandboxUrl, orderId, 'upi');
    await act(live.demo.sandboxUrl, payment.id, 'pay');
    await waitForScreen(page, 'paid');
    await page.locator('[data-events]').getByText('paid 499.00 INR').waitFor();
    await page
      .locator('[data-shop-status]')
      .filter({ hasText: /^paid$/ })
      .waitFor({ timeout: 20_000 });
    await expectOneFinalEvent(page, 'payin-paid');
    await expectPaidAndAnnouncedOnce(live.demo.storeUrl, live.demo.sandboxUrl, orderId, { amount: '499.00', currency: 'INR' });
    await context.close();
  });
});

describe('the demo on a phone', () => {
  it('fits a 375 px screen on the checkout page, the amount and its copy button in view', async () => {
    const context = await live.browser.newContext({ viewport: { width: 375, height: 667 }, isMobile: true, hasTouch: true });
    const page = await context.newPage();
    const orderId = await checkoutOnShop(page, live.demo.storeUrl, '/shop', 'upi');
    await waitForScreen(page, 'pay');
    expect(orderId).toBeTruthy();
    const widths = await page.evaluate(() => ({ page: document.documentElement.scrollWidth, viewport: window.innerWidth }));
    expect(widths.page).toBeLessThanOrEqual(widths.viewport);
    const copy = await page.evaluate(() => {
      const button = document.querySelector('payin-checkout')?.shadowRoot?.querySelector('[part~="copy-button"]');
      const box = button?.getBoundingClientRect();
      return box ? { left: box.left, right: box.right } : undefined;
    });
    expect(copy).toBeDefined();
    expect(copy!.right).toBeLessThanOrEqual(375);
    await context.close();
  });
});
