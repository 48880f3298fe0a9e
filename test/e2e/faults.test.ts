/**
 * The sandbox misbehaving the way real services do (slow answers, refused and garbled answers, status as an
 * array, every callback twice, callbacks out of order): the shopper, pressing "Try again" when the element asks,
 * still sees the payment end right, and the shop still hears "paid" exactly once and never goes back.
 */
import type { Page } from 'playwright-core';
import { describe, it } from 'vitest';
import { newContext } from './support/browser.js';
import { useDemo } from './support/use-demo.js';
import { act, pendingPaymentOf, setFaults } from './support/services.js';
import { checkoutOnShop, expectOneFinalEvent, expectPaidAndAnnouncedOnce, expectShopListShows, waitForScreen } from './support/shopper.js';

const live = useDemo();

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
    await setFaults(live.demo.sandboxUrl, {
      latencyMs: 250,
      errorRate: 0.25,
      malformedRate: 0.15,
      statusAsArray: true,
      duplicateCallbacks: true,
      reorderCallbacks: true,
    });
    const context = await newContext(live.browser);
    const page = await context.newPage();
    const orderId = await checkoutOnShop(page, live.demo.storeUrl, '/shop', 'sbp');
    await reachPayScreen(page);

    const payment = await pendingPaymentOf(live.demo.sandboxUrl, orderId);
    await act(live.demo.sandboxUrl, payment.id, 'pay');
    await waitForScreen(page, 'paid', 60_000);
    await expectShopListShows(page, orderId, 'paid');
    await expectPaidAndAnnouncedOnce(live.demo.storeUrl, live.demo.sandboxUrl, orderId, { copies: 2, amount: '450.00', currency: 'RUB' });
    await expectOneFinalEvent(page, 'payin-paid');
    await context.close();
  });
});
