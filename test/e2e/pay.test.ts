/**
 * The two happy paths as a shopper takes them, against what `npm start` serves: UPI on the plain shop page
 * (script-tag build), with the payer pressing "Pay" in the sandbox console; SBP on the ES-module page, with the
 * payer acting through the sandbox's control API. Each ends with the element saying paid, the shop's own list
 * saying paid, and the shop's hook having announced "paid" exactly once.
 */
import { describe, expect, it } from 'vitest';
import { events, newContext } from './support/browser.js';
import { useDemo } from './support/use-demo.js';
import { act, pendingPaymentOf } from './support/services.js';
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

  it('by the first method after switching to another: the page of the second says the order is paid', async () => {
    // The demo prices UPI in rupees and SBP in roubles. The shopper starts with UPI, switches to SBP, then pays
    // the UPI QR anyway (scanned before the switch) and comes back to the page.
    const context = await newContext(live.browser);
    const page = await context.newPage();
    await page.goto(`${live.demo.storeUrl}/module`);
    await waitForScreen(page, 'pay');
    const orderId = await orderOnPage(page);
    const upi = await pendingPaymentOf(live.demo.sandboxUrl, orderId, 'upi');
    await switchModulePageTo(page, 'sbp');
    await pendingPaymentOf(live.demo.sandboxUrl, orderId, 'sbp');

    await act(live.demo.sandboxUrl, upi.id, 'pay');
    await expectShopListShows(page, orderId, 'paid');
    // Back from the bank app: the element checks at once.
    await page.evaluate(() => document.dispatchEvent(new Event('visibilitychange')));
    await waitForScreen(page, 'paid');
    await page.locator('payin-checkout').getByText('already paid').waitFor();
    expect(await page.locator('payin-checkout [part="paid-amount"]').count()).toBe(0);
    await expectPaidAndAnnouncedOnce(live.demo.storeUrl, live.demo.sandboxUrl, orderId, { amount: '499.00', currency: 'INR' });
    await context.close();
  });
});
