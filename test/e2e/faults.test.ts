/**
 * The sandbox misbehaving the way real services do (slow answers, refused and garbled answers, status as an
 * array, every callback twice, callbacks out of order): the shopper, pressing "Try again" when the element asks,
 * still sees the payment end right, and the shop still hears "paid" exactly once and never goes back.
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, it } from 'vitest';
import { launchBrowser, newContext } from './support/browser.js';
import { startDemo, type DemoProcess } from './support/demo-process.js';
import { act, pendingPaymentOf, setFaults } from './support/services.js';
import { checkoutOnShop, expectOneFinalEvent, expectPaidAndAnnouncedOnce, expectShopListShows, waitForScreen } from './support/shopper.js';

let demo: DemoProcess;
let browser: Browser;

beforeAll(async () => {
  [demo, browser] = await Promise.all([startDemo(), launchBrowser()]);
});

afterAll(async () => {
  await browser?.close();
  await demo?.stop();
});

/** Waits for the pay screen, pressing the element's retry button whenever it shows an error (bounded). */
async function reachPayScreen(page: Page): Promise<void> {
  for (let attempt = 0; attempt < 15; attempt++) {
    const screen = await page
      .waitForFunction(
        () => {
          const s = (document.querySelector('payin-checkout') as (Element & { screen?: string }) | null)?.screen;
          return s === 'pay' || s === 'error' ? s : undefined;
        },
        undefined,
        { timeout: 30_000 },
      )
      .then((handle) => handle.jsonValue());
    if (screen === 'pay') return;
    await page.locator('payin-checkout [part="retry-button"]').click();
  }
  throw new Error('the element did not reach the pay screen after 15 retries');
}

describe('with the sandbox faults switched on', () => {
  it('a payment still ends paid, announced exactly once', async () => {
    await setFaults(demo.sandboxUrl, {
      latencyMs: 250,
      errorRate: 0.25,
      malformedRate: 0.15,
      statusAsArray: true,
      duplicateCallbacks: true,
      reorderCallbacks: true,
    });
    const context = await newContext(browser);
    const page = await context.newPage();
    const orderId = await checkoutOnShop(page, demo.storeUrl, '/shop', 'sbp');
    await reachPayScreen(page);

    const payment = await pendingPaymentOf(demo.sandboxUrl, orderId);
    await act(demo.sandboxUrl, payment.id, 'pay');
    await waitForScreen(page, 'paid', 60_000);
    await expectShopListShows(page, orderId, 'paid');
    await expectPaidAndAnnouncedOnce(demo.storeUrl, demo.sandboxUrl, orderId, { copies: 2, amount: '450.00', currency: 'RUB' });
    await expectOneFinalEvent(page, 'payin-paid');
    await context.close();
  });
});
