/**
 * The paths a shopper takes without meaning to: reloading the page while paying, opening the same order in two
 * tabs, losing the connection while the payer pays, and tapping a method on a phone that has lost it (a train in a
 * tunnel). Each must end with one payment, the element saying paid (or, back online, showing the payment without
 * another tap), and the shop announcing "paid" once.
 */
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { events, newContext } from './support/browser.js';
import { newPhoneContext } from './support/phone.js';
import { useDemo } from './support/use-demo.js';
import { act, pendingPaymentOf, placeOrder, sandboxPayments, shopOrder, waitFor } from './support/services.js';
import { checkoutOnShop, expectOneFinalEvent, expectPaidAndAnnouncedOnce, waitForScreen } from './support/shopper.js';

const live = useDemo();

const paymentIdOn = (page: Page) =>
  page.evaluate(() => (document.querySelector('payin-checkout') as (Element & { payment?: { id: string } }) | null)?.payment?.id);

async function paymentsOf(orderId: string) {
  return (await sandboxPayments(live.demo.sandboxUrl)).filter((p) => p.orderId === orderId);
}

describe('a shopper who', () => {
  it('reloads the page in the middle resumes the same payment', async () => {
    const context = await newContext(live.browser);
    const page = await context.newPage();
    const orderId = await checkoutOnShop(page, live.demo.storeUrl, '/shop', 'upi');
    await waitForScreen(page, 'pay');
    const before = await paymentIdOn(page);

    await page.reload();
    await waitForScreen(page, 'pay');
    expect(await paymentIdOn(page)).toBe(before);
    expect((await events(page)).find((e) => e.type === 'payin-created')?.resumed).toBe(true);

    const payment = await pendingPaymentOf(live.demo.sandboxUrl, orderId);
    await act(live.demo.sandboxUrl, payment.id, 'pay');
    await waitForScreen(page, 'paid');
    await expectOneFinalEvent(page, 'payin-paid');
    await expectPaidAndAnnouncedOnce(live.demo.storeUrl, live.demo.sandboxUrl, orderId, { amount: '499.00', currency: 'INR' });
    expect(await paymentsOf(orderId)).toHaveLength(1);
    await context.close();
  });

  it('opens one order in two tabs sees one payment, paid in both', async () => {
    const context = await newContext(live.browser);
    const first = await context.newPage();
    const orderId = await checkoutOnShop(first, live.demo.storeUrl, '/shop', 'upi');
    await waitForScreen(first, 'pay');
    const second = await context.newPage();
    await second.goto(first.url());
    await waitForScreen(second, 'pay');
    expect(await paymentIdOn(second)).toBe(await paymentIdOn(first));
    expect(await paymentsOf(orderId)).toHaveLength(1);

    const payment = await pendingPaymentOf(live.demo.sandboxUrl, orderId);
    await act(live.demo.sandboxUrl, payment.id, 'pay');
    await Promise.all([waitForScreen(first, 'paid'), waitForScreen(second, 'paid')]);
    await expectOneFinalEvent(first, 'payin-paid');
    await expectOneFinalEvent(second, 'payin-paid');
    await expectPaidAndAnnouncedOnce(live.demo.storeUrl, live.demo.sandboxUrl, orderId, { amount: '499.00', currency: 'INR' });
    await context.close();
  });

  it('goes offline while the payer pays sees it paid once back online', async () => {
    const context = await newContext(live.browser);
    // Chromium's offline emulation spares a stream that is already open, which a real lost connection would
    // not: so the event stream is refused from the start, the element follows by polling, and offline stops that.
    await context.route(/\/payin\/events/, (route) => route.abort('internetdisconnected'));
    const page = await context.newPage();
    const orderId = await checkoutOnShop(page, live.demo.storeUrl, '/shop', 'upi');
    await waitForScreen(page, 'pay');
    const payment = await pendingPaymentOf(live.demo.sandboxUrl, orderId);

    await context.setOffline(true);
    await act(live.demo.sandboxUrl, payment.id, 'pay');
    // The shop hears it from the callback while the shopper's live.browser cannot.
    await waitFor('the shop to record the payment', async () =>
      (await shopOrder(live.demo.storeUrl, orderId)).status === 'paid' ? true : undefined,
    );
    expect(await page.evaluate(() => navigator.onLine)).toBe(false);
    await page.locator('payin-checkout [part="notice"]').waitFor({ timeout: 30_000 });
    expect(await page.evaluate(() => (document.querySelector('payin-checkout') as Element & { screen: string }).screen)).toBe('pay');

    await context.setOffline(false);
    await waitForScreen(page, 'paid');
    await expectOneFinalEvent(page, 'payin-paid');
    await expectPaidAndAnnouncedOnce(live.demo.storeUrl, live.demo.sandboxUrl, orderId, { amount: '499.00', currency: 'INR' });
    await context.close();
  });

  it('taps a method on a phone without a connection, is told so, and back online sees the payment without tapping again', async () => {
    const context = await newPhoneContext(live.browser, 'android', live.demo.sandboxUrl);
    const page = await context.newPage();
    const order = await placeOrder(live.demo.storeUrl);
    await page.goto(`${live.demo.storeUrl}/shop/checkout/${encodeURIComponent(order.id)}?method=choice`);
    await waitForScreen(page, 'choose');

    await context.setOffline(true);
    await page.locator('payin-checkout [part="method-button"]', { hasText: 'UPI' }).tap();
    await waitForScreen(page, 'error');
    await page.locator('payin-checkout [part="error"]', { hasText: 'No connection' }).waitFor();
    expect(await paymentsOf(order.id), 'nothing reached the shop offline').toHaveLength(0);

    // Back online the screen said "No connection. Check your internet and try again." until the shopper, whose
    // connection was fine by then, tapped "Try again": the element repeats the create by itself now.
    await context.setOffline(false);
    await waitForScreen(page, 'pay', 10_000);
    expect(await paymentsOf(order.id)).toHaveLength(1);
    expect((await events(page)).filter((e) => e.type === 'payin-created')).toHaveLength(1);
    await context.close();
  });
});
