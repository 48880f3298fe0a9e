/**
 * The shopper's pay flow in Firefox (Debian's firefox-esr), driven over WebDriver BiDi by puppeteer-core, against
 * what `npm start` serves: the checkout page (script-tag build), the widget's pay screen, the payer paying in the
 * sandbox, "paid" in the widget and in the shop's order list; coming back from the bank app; the event stream
 * dropped by the network and opened again.
 */
import puppeteer, { type Browser } from 'puppeteer-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDemo, type DemoProcess } from './support/demo-process.js';
import { act, pendingPaymentOf, placeOrder, shopOrder, waitFor } from './support/services.js';
import { backAfterExpiry, call, type ComingBack, payWhileAway, WATCH } from './support/coming-back.js';
import { startPrefixFront } from '../support/prefix-front.js';

/** How long Firefox waits before it reconnects a dropped event stream (its default reconnection time). */
const FIREFOX_RECONNECT_MS = 5_000;

const { findFirefox } = (await import(new URL('../tools/find-firefox.mjs', import.meta.url).href)) as { findFirefox(): string | undefined };

describe('paying in Firefox', () => {
  let demo: DemoProcess;
  let browser: Browser;
  beforeAll(async () => {
    const executablePath = findFirefox();
    if (!executablePath) throw new Error('No Firefox: npm test installs firefox-esr as root, or set FIREFOX_PATH.');
    [demo, browser] = await Promise.all([
      startDemo(),
      puppeteer.launch({ browser: 'firefox', executablePath, headless: true, extraPrefsFirefox: { 'network.proxy.type': 0 } }),
    ]);
    console.log(`Firefox engine: ${await browser.version()} (puppeteer-core, WebDriver BiDi)`);
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await demo?.stop();
  });

  it('takes a UPI payment from the checkout page to "paid"', async () => {
    const order = await placeOrder(demo.storeUrl);
    const page = await browser.newPage();
    await page.goto(`${demo.storeUrl}/shop/checkout/${encodeURIComponent(order.id)}?method=upi`);
    const screen = (wanted: string) =>
      page.waitForFunction(
        (w) => (document.querySelector('payin-checkout') as (Element & { screen?: string }) | null)?.screen === w,
        { timeout: 30_000 },
        wanted,
      );
    // The element may need its start button (no autostart on the shop page): press it if it is there.
    await page.waitForFunction(() => customElements.get('payin-checkout') !== undefined, { timeout: 30_000 });
    await page.evaluate(async () => {
      const el = document.querySelector('payin-checkout') as (Element & { screen?: string; start(): Promise<void> }) | null;
      if (el && el.screen === 'start') await el.start();
    });
    await screen('pay');
    const qr = await page.evaluate(() => !!document.querySelector('payin-checkout')?.shadowRoot?.querySelector('[part~="qr"]'));
    expect(qr).toBe(true);
    const payment = await pendingPaymentOf(demo.sandboxUrl, order.id, 'upi');
    await act(demo.sandboxUrl, payment.id, 'pay');
    await screen('paid');
    const heading = await page.evaluate(
      () => document.querySelector('payin-checkout')?.shadowRoot?.querySelector('h2, h1, [part~="heading"]')?.textContent ?? '',
    );
    expect(heading).toContain('Payment received');
    await waitFor('the shop to list the order paid', async () =>
      (await shopOrder(demo.storeUrl, order.id)).status === 'paid' ? true : undefined,
    );
    await page.close();
  }, 90_000);

  for (const how of ['visibilitychange', 'pageshow'] as ComingBack[]) {
    it(`says paid as soon as the page is back from the bank app (${how}), though its stream was cut`, async () => {
      const order = await placeOrder(demo.storeUrl);
      const page = await browser.newPage();
      await page.goto(`${demo.storeUrl}/shop/checkout/${encodeURIComponent(order.id)}?method=upi`);
      await page.waitForFunction(() => customElements.get('payin-checkout') !== undefined, { timeout: 30_000 });
      const tab = { run: <T>(fn: string, ...args: unknown[]) => page.evaluate(call(fn, args)) as Promise<T> };
      const { paidAfterMs, streams } = await payWhileAway(tab, demo, order.id, how);
      console.log(`Firefox, back by ${how}: paid ${Math.round(paidAfterMs)} ms after the page was shown again`);
      expect(streams, 'the cut stream was opened again on coming back').toBeGreaterThanOrEqual(2);
      await page.close();
    }, 90_000);
  }

  it('hears over the event stream again after the network dropped it', async () => {
    // The shop behind a front whose connections the test cuts, as a network drops: Firefox reconnects the stream by
    // itself after its own wait (5 s), and the element must have kept it for that.
    const front = await startPrefixFront(demo.storeUrl, '');
    const page = await browser.newPage();
    try {
      const order = await placeOrder(demo.storeUrl);
      await page.goto(`${front.url}/shop/checkout/${encodeURIComponent(order.id)}?method=upi`);
      await page.waitForFunction(() => customElements.get('payin-checkout') !== undefined, { timeout: 30_000 });
      await page.evaluate(call(WATCH, []));
      await page.waitForFunction(() => (window as unknown as { __streams: EventSource[] }).__streams.some((s) => s.readyState === 1), {
        timeout: 30_000,
      });
      const before = await page.evaluate(() => {
        (document.querySelector('payin-checkout') as Element & { pollInterval: number }).pollInterval = 3_600_000; // only the stream may tell
        return performance.getEntriesByType('resource').filter((e) => e.name.includes('/payin/status')).length;
      });
      front.cut();
      // The drop is noticed and checked at once; the payer pays after that answer.
      await page.waitForFunction(
        (n) =>
          performance.getEntriesByType('resource').filter((e) => e.name.includes('/payin/status')).length > n &&
          (window as unknown as { __inFlight: number }).__inFlight === 0,
        { timeout: 10_000 },
        before,
      );
      await page.evaluate(() => ((window as unknown as { __actAt: number }).__actAt = performance.now()));
      await act(demo.sandboxUrl, (await pendingPaymentOf(demo.sandboxUrl, order.id)).id, 'pay');
      await page.waitForFunction(() => (document.querySelector('payin-checkout') as Element & { screen: string }).screen === 'paid', {
        timeout: 30_000,
      });
      const { heardMs, streams } = await page.evaluate(() => {
        const w = window as unknown as { __paidAt: number; __actAt: number; __streams: unknown[] };
        return { heardMs: w.__paidAt - w.__actAt, streams: w.__streams.length };
      });
      console.log(`Firefox, stream dropped: paid heard ${Math.round(heardMs)} ms after the payer paid (${streams} streams)`);
      expect(heardMs, 'heard over the stream reconnected, polling being out of reach').toBeLessThan(FIREFOX_RECONNECT_MS + 3_000);
    } finally {
      await page.close();
      await front.close();
    }
  }, 90_000);

  it('says "late", never failed, to a shopper back after the expiry', async () => {
    // A demo of its own, whose payments expire in 5 s.
    const short = await startDemo({ SANDBOX_TTL_SECONDS: '5' });
    const page = await browser.newPage();
    try {
      const order = await placeOrder(short.storeUrl);
      await page.goto(`${short.storeUrl}/shop/checkout/${encodeURIComponent(order.id)}?method=upi`);
      await page.waitForFunction(() => customElements.get('payin-checkout') !== undefined, { timeout: 30_000 });
      const tab = { run: <T>(fn: string, ...args: unknown[]) => page.evaluate(call(fn, args)) as Promise<T> };
      expect(await backAfterExpiry(tab, short.sandboxUrl, order.id)).toBe('late');
    } finally {
      await page.close();
      await short.stop();
    }
  }, 90_000);
});
