/**
 * Coming back from the bank app, in Chromium (Firefox and WebKit play the same walk in their own suites): the page
 * was hidden, its event stream cut, the payment paid meanwhile; shown again it says "paid" at once, whether it comes
 * back by `visibilitychange` or, restored from the back-forward cache, by `pageshow` alone. And a shopper whom the
 * app sends back into a fresh context (a new or private tab: no sessionStorage) finds the paid order paid, not an
 * error, with no second payment.
 */
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { newContext } from './support/browser.js';
import { call, type ComingBack, payWhileAway, type Tab, untilScreen } from './support/coming-back.js';
import { act, pendingPaymentOf, placeOrder, sandboxPayments } from './support/services.js';
import { useDemo } from './support/use-demo.js';

const live = useDemo();

const tabOf = (page: Page): Tab => ({ run: (fn, ...args) => page.evaluate(call(fn, args)) });

async function checkoutTab(orderId: string, method = 'upi'): Promise<{ page: Page; tab: Tab }> {
  const context = await newContext(live.browser);
  const page = await context.newPage();
  await page.goto(`${live.demo.storeUrl}/shop/checkout/${encodeURIComponent(orderId)}?method=${method}`);
  return { page, tab: tabOf(page) };
}

describe('coming back from the bank app (Chromium)', () => {
  it('names the engine', () => console.log(`Chromium engine: ${live.browser.version()} (playwright-core)`));

  for (const how of ['visibilitychange', 'pageshow'] as ComingBack[]) {
    it(`says paid as soon as the page is back (${how}) and follows on a fresh event stream`, async () => {
      const order = await placeOrder(live.demo.storeUrl);
      const { page, tab } = await checkoutTab(order.id);
      const { paidAfterMs, streams } = await payWhileAway(tab, live.demo, order.id, how);
      console.log(`Chromium, back by ${how}: paid ${Math.round(paidAfterMs)} ms after the page was shown again`);
      expect(streams, 'the cut stream was opened again on coming back').toBeGreaterThanOrEqual(2);
      await page.context().close();
    });
  }

  it('shows a paid order as paid in a fresh context, without an error or a second payment', async () => {
    const order = await placeOrder(live.demo.storeUrl);
    const first = await checkoutTab(order.id);
    await untilScreen(first.tab, 'pay');
    await act(live.demo.sandboxUrl, (await pendingPaymentOf(live.demo.sandboxUrl, order.id)).id, 'pay');
    await untilScreen(first.tab, 'paid');
    await first.page.context().close();

    const fresh = await checkoutTab(order.id);
    await untilScreen(fresh.tab, 'paid');
    await fresh.page.locator('payin-checkout').getByRole('heading', { name: 'Payment received' }).waitFor();
    expect(await fresh.page.locator('payin-checkout [part="error"]').count()).toBe(0);
    const payments = (await sandboxPayments(live.demo.sandboxUrl)).filter((p) => p.orderId === order.id);
    expect(payments.map((p) => p.state)).toEqual(['finished']);
    await fresh.page.context().close();
  });
});
