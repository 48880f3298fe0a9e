/**
 * The two happy paths as a shopper takes them, against what `npm start` serves: UPI on the plain shop page
 * (script-tag build), with the payer pressing "Pay" in the sandbox console; SBP on the ES-module page, with the
 * payer acting through the sandbox's control API. Each ends with the element saying paid, the shop's own list
 * saying paid, and the shop's hook having announced "paid" exactly once.
 */
import type { Request } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { events, newContext } from './support/browser.js';
import { useDemo } from './support/use-demo.js';
import { act, pendingPaymentOf, waitFor } from './support/services.js';
import {
  checkoutInReact,
  checkoutOnShop,
  expectOneFinalEvent,
  expectPaidAndAnnouncedOnce,
  expectShopListShows,
  orderOnPage,
  payInConsole,
  switchModulePageTo,
  waitForScreen,
} from './support/shopper.js';

const live = useDemo();

describe('paying an order', () => {
  it('by UPI on the plain shop page, the payer pressing Pay in the sandbox console', async () => {
    const context = await newContext(live.browser);
    const page = await context.newPage();
    const orderId = await checkoutOnShop(page, live.demo.storeUrl, '/shop', 'upi');

    await waitForScreen(page, 'pay');
    await expect.poll(() => page.getByText('₹499.00').or(page.getByText('499.00')).first().isVisible()).toBe(true);
    await payInConsole(context, live.demo.sandboxUrl, orderId);

    await waitForScreen(page, 'paid');
    await page.getByRole('heading', { name: 'Payment received' }).waitFor();
    await expectShopListShows(page, orderId, 'paid');
    await expectPaidAndAnnouncedOnce(live.demo.storeUrl, live.demo.sandboxUrl, orderId, { amount: '499.00', currency: 'INR' });
    await expectOneFinalEvent(page, 'payin-paid');
    expect((await events(page)).filter((e) => e.type === 'payin-created')).toHaveLength(1);
    await context.close();
  });

  it('by SBP on the ES-module page, the payer acting through the control API', async () => {
    const context = await newContext(live.browser);
    const page = await context.newPage();
    await page.goto(`${live.demo.storeUrl}/module`);
    // The page starts with UPI; switching the method reconfigures the same element for a new SBP payment.
    await waitForScreen(page, 'pay');
    await switchModulePageTo(page, 'sbp');
    const orderId = await orderOnPage(page);

    const payment = await pendingPaymentOf(live.demo.sandboxUrl, orderId, 'sbp');
    await page.getByText(payment.requisites!.address).first().waitFor();
    await act(live.demo.sandboxUrl, payment.id, 'pay');

    await waitForScreen(page, 'paid');
    await page
      .locator('#log')
      .getByText(/payin-paid/)
      .waitFor();
    await expectShopListShows(page, orderId, 'paid');
    await expectPaidAndAnnouncedOnce(live.demo.storeUrl, live.demo.sandboxUrl, orderId, { amount: '450.00', currency: 'RUB' });
    await expectOneFinalEvent(page, 'payin-paid');
    await context.close();
  });

  it('on the ES-module page and in the React app, whose event logs show an underpaid payment too', async () => {
    // A shop copies these pages' listeners: every final event of the element belongs in them.
    const context = await newContext(live.browser);
    const page = await context.newPage();
    await page.goto(`${live.demo.storeUrl}/module`);
    await waitForScreen(page, 'pay');
    const orderId = await orderOnPage(page);
    const payment = await pendingPaymentOf(live.demo.sandboxUrl, orderId, 'upi');
    await act(live.demo.sandboxUrl, payment.id, 'pay', { amount: '100.00' });
    await waitForScreen(page, 'underpaid');
    await page
      .locator('#log')
      .getByText(/payin-underpaid/)
      .waitFor();

    const reactOrder = await checkoutInReact(page, live.demo.storeUrl);
    const reactPayment = await pendingPaymentOf(live.demo.sandboxUrl, reactOrder, 'upi');
    await act(live.demo.sandboxUrl, reactPayment.id, 'pay', { amount: '100.00' });
    await waitForScreen(page, 'underpaid');
    await page.locator('[data-events]').getByText('underpaid 100.00 of 499.00 INR').waitFor();
    await context.close();
  });

  it('by the first method after switching to another: the page of the second says at once that the order is paid', async () => {
    // The demo prices UPI in rupees and SBP in roubles. The shopper starts with UPI, switches to SBP, then pays
    // the UPI QR anyway (scanned before the switch) from a phone, while this page stays open and visible.
    const context = await newContext(live.browser);
    const page = await context.newPage();
    await page.goto(`${live.demo.storeUrl}/module`);
    await waitForScreen(page, 'pay');
    // No poll in this test's lifetime: beside the open stream the next check is at least 48 minutes away (the
    // interval less 20 %), and the switch below follows the SBP payment with this interval from its start.
    await page.evaluate(() => {
      (document.querySelector('payin-checkout') as Element & { pollInterval: number }).pollInterval = 3_600_000;
    });
    const checks: string[] = [];
    const answered: string[] = [];
    const paymentOf = (request: Request) => (request.url().endsWith('/payin/status') ? request.postDataJSON()?.paymentId : undefined);
    page.on('request', (request) => paymentOf(request) && checks.push(paymentOf(request)));
    page.on('requestfinished', (request) => paymentOf(request) && answered.push(paymentOf(request)));
    const orderId = await orderOnPage(page);
    const upi = await pendingPaymentOf(live.demo.sandboxUrl, orderId, 'upi');
    await switchModulePageTo(page, 'sbp');
    const sbp = await pendingPaymentOf(live.demo.sandboxUrl, orderId, 'sbp');
    // Following starts with one check at once; it is answered before anything is paid.
    await waitFor('the first check of the SBP payment to be answered', () => answered.includes(sbp.id) || undefined);
    const checksBefore = checks.length;

    await act(live.demo.sandboxUrl, upi.id, 'pay');
    await waitForScreen(page, 'paid');
    // Nothing asked: the event stream brought the news, with the page never hidden or shown again.
    expect(checks.slice(checksBefore)).toEqual([]);
    await page.locator('payin-checkout').getByText('already paid').waitFor();
    expect(await page.locator('payin-checkout [part="paid-amount"]').count()).toBe(0);
    // As for an answer of 409 order_paid: an error the page shows as the order paid, and no payin-paid of its own.
    const told = (await events(page)).filter((e) => e.type === 'payin-error' || e.type === 'payin-paid');
    expect(told.map((e) => [e.type, e.code])).toEqual([['payin-error', 'order_paid']]);
    await expectShopListShows(page, orderId, 'paid');
    await expectPaidAndAnnouncedOnce(live.demo.storeUrl, live.demo.sandboxUrl, orderId, { amount: '499.00', currency: 'INR' });
    await context.close();
  });
});
