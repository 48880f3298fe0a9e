/**
 * What a shopper and a payer do, and what the suites then check: place an order on a shop page, watch the
 * element reach a screen, pay in the sandbox console (a second page, as a person would), and wait until every
 * callback the sandbox sent has been answered before counting the shop's announcements.
 */
import type { BrowserContext, Page } from 'playwright-core';
import { expect } from 'vitest';
import { events } from './browser.js';
import { sandboxPayments, shopOrder, waitFor, type SandboxPayment, type ShopOrder } from './services.js';

/** In the React app: choose UPI, press Pay on the tea (499.00 INR), see the pay screen; answers the order id. */
export async function checkoutInReact(page: Page, storeUrl: string): Promise<string> {
  await page.goto(`${storeUrl}/react/`);
  await page.getByRole('radio', { name: 'UPI' }).check();
  await page
    .getByRole('button', { name: /^Pay 499\.00 INR$/ })
    .first()
    .click();
  await waitForScreen(page, 'pay');
  return orderOnPage(page);
}

/** On the plain shop (or its strict twin): choose the method, press Pay; answers the order id. */
export async function checkoutOnShop(page: Page, storeUrl: string, base: '/shop' | '/strict', method: 'upi' | 'sbp'): Promise<string> {
  await page.goto(`${storeUrl}${base}`);
  const product = page.locator('form.product').first();
  await product.locator(`input[name="method"][value="${method}"]`).check();
  await Promise.all([page.waitForURL(/\/checkout\/[^/?]+/), product.getByRole('button', { name: 'Pay' }).click()]);
  const orderId = decodeURIComponent(/\/checkout\/([^/?]+)/.exec(page.url())![1]!);
  return orderId;
}

/** Waits until the (first) element on the page shows `screen` (its public `screen` property). */
export async function waitForScreen(page: Page, screen: string, timeout = 30_000): Promise<void> {
  await page.waitForFunction(
    (wanted) => (document.querySelector('payin-checkout') as (Element & { screen?: string }) | null)?.screen === wanted,
    screen,
    { timeout },
  );
}

/** The order the page's checkout is for. */
export function orderOnPage(page: Page): Promise<string> {
  return page.evaluate(() => (document.querySelector('payin-checkout') as Element & { orderId: string }).orderId);
}

/** On the ES-module page: picks another method, which reconfigures the same element for a new payment, and waits for its pay screen. */
export async function switchModulePageTo(page: Page, method: 'upi' | 'sbp'): Promise<void> {
  await page.locator('#method').selectOption(method);
  await page.waitForFunction((wanted) => {
    const el = document.querySelector('payin-checkout') as (Element & { screen: string; payment?: { method: string } }) | null;
    return el?.payment?.method === wanted && el.screen === 'pay';
  }, method);
}

/** The payer presses "Pay" next to the order's payment in the sandbox console, in a page of its own. */
export async function payInConsole(context: BrowserContext, sandboxUrl: string, orderId: string): Promise<void> {
  const console = await context.newPage();
  try {
    await console.goto(`${sandboxUrl}/`);
    const row = console.locator('#payments tbody tr', { hasText: orderId }).filter({ hasText: 'pending' });
    await row.getByRole('button', { name: 'Pay', exact: true }).click();
    await console.locator('#payments tbody tr', { hasText: orderId }).filter({ hasText: 'finished' }).waitFor();
  } finally {
    await console.close();
  }
}

/** True once every callback the sandbox sent for the payment was answered 2xx and `states` were all delivered. */
function settled(payment: SandboxPayment, states: string[], copies: number): boolean {
  const okByCallback = new Map<number, boolean>();
  for (const d of payment.deliveries) okByCallback.set(d.callback, (okByCallback.get(d.callback) ?? false) || d.ok);
  if ([...okByCallback.values()].some((ok) => !ok)) return false;
  return states.every(
    (state) => new Set(payment.deliveries.filter((d) => d.ok && d.state === state).map((d) => d.callback)).size >= copies,
  );
}

/**
 * After the payment is final: waits for the sandbox's callbacks to be delivered (both copies of each when they
 * are duplicated), then checks that the shop heard "paid" exactly once and never went back.
 */
export async function expectPaidAndAnnouncedOnce(
  storeUrl: string,
  sandboxUrl: string,
  orderId: string,
  { copies = 1, amount, currency }: { copies?: number; amount: string; currency: string },
): Promise<ShopOrder> {
  const payment = await waitFor(
    `the callbacks of ${orderId} to be delivered`,
    async () => {
      const found = (await sandboxPayments(sandboxUrl)).find((p) => p.orderId === orderId && p.state === 'finished');
      return found && settled(found, ['pending', 'finished'], copies) ? found : undefined;
    },
    40_000,
  );
  const order = await waitFor(`the shop to record ${orderId} as paid`, async () => {
    const o = await shopOrder(storeUrl, orderId);
    return o.status === 'paid' ? o : undefined;
  });
  const paid = order.announcements.filter((a) => a.outcome === 'paid');
  expect(paid, 'the shop hook announces "paid" exactly once').toHaveLength(1);
  expect(paid[0]!.paymentId).toBe(payment.id);
  expect(order.paid).toEqual({ paymentId: payment.id, amount, currency });
  // Each state is announced at most once, and nothing after the final one.
  const outcomes = order.announcements.filter((a) => a.paymentId === payment.id).map((a) => a.state);
  expect(new Set(outcomes).size).toBe(outcomes.length);
  expect(order.announcements.at(-1)!.outcome).toBe('paid');
  return order;
}

/** The element announced the payment's end exactly once on this page. */
export async function expectOneFinalEvent(page: Page, type: 'payin-paid' | 'payin-expired' | 'payin-failed'): Promise<void> {
  const finals = (await events(page)).filter((e) => e.type === 'payin-paid' || e.type === 'payin-expired' || e.type === 'payin-failed');
  expect(finals.map((e) => e.type)).toEqual([type]);
}

/** The shop's order list on the page shows the order with `status`. */
export async function expectShopListShows(page: Page, orderId: string, status: string): Promise<void> {
  await page
    .locator(`[data-orders] tr[data-order-id="${orderId}"] [data-status]`)
    .filter({ hasText: new RegExp(`^${status}$`) })
    .waitFor({ timeout: 20_000 });
}
