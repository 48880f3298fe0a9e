/**
 * Coming back from the bank app, in Chromium (Firefox and WebKit play the same walk in their own suites): the page
 * was hidden, its event stream cut, the payment paid meanwhile; shown again it says "paid" at once, whether it comes
 * back by `visibilitychange` or, restored from the back-forward cache, by `pageshow` alone. And a shopper whom the
 * app sends back into a fresh context (a new or private tab: no sessionStorage) finds the paid order paid, not an
 * error, with no second payment; and one whom it sends back into a new tab while the payment is still pending sees
 * it paid there, though the first tab, hidden, was suspended by the phone.
 */
import type { BrowserContext, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { newContext } from './support/browser.js';
import { call, type ComingBack, payWhileAway, type Tab, untilScreen } from './support/coming-back.js';
import { act, pendingPaymentOf, placeOrder, sandboxPayments, waitFor } from './support/services.js';
import { useDemo } from './support/use-demo.js';

const live = useDemo();

const tabOf = (page: Page): Tab => ({ run: (fn, ...args) => page.evaluate(call(fn, args)) });

async function checkoutTab(orderId: string, method = 'upi', context?: BrowserContext): Promise<{ page: Page; tab: Tab }> {
  const page = await (context ?? (await newContext(live.browser))).newPage();
  await page.goto(`${live.demo.storeUrl}/shop/checkout/${encodeURIComponent(orderId)}?method=${method}`);
  return { page, tab: tabOf(page) };
}

/** A tab goes into the background: it is hidden, and the page hears visibilitychange. */
async function hide(page: Page): Promise<void> {
  await page.evaluate(async () => {
    Object.defineProperty(document, 'visibilityState', { configurable: true, get: () => 'hidden' });
    Object.defineProperty(document, 'hidden', { configurable: true, get: () => true });
    document.dispatchEvent(new Event('visibilitychange'));
    await new Promise((resolve) => setTimeout(resolve, 50)); // what the page does as it goes, before the phone stops it
  });
}

/** The phone suspends a tab in the background with everything it holds: no script of it runs any more (here the debugger holds its thread). */
async function suspend(page: Page): Promise<() => Promise<void>> {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Debugger.enable');
  await cdp.send('Debugger.pause');
  return async () => {
    await cdp.send('Debugger.resume');
    await cdp.detach();
  };
}

/** What a phone does to a tab that goes into the background: it is hidden, then suspended. */
async function suspendInBackground(page: Page): Promise<() => Promise<void>> {
  await hide(page);
  return suspend(page);
}

/** Which tabs (by the lock manager's client ids) hold the Web Lock of a checkout's payment, and which wait for it. */
const paymentLock = (page: Page) =>
  page.evaluate(async () => {
    const { held = [], pending = [] } = await navigator.locks.query();
    const ofPayment = (locks: LockInfo[]) => locks.filter((lock) => lock.name?.startsWith('payin-checkout:')).map((lock) => lock.clientId);
    return { held: ofPayment(held), pending: ofPayment(pending) };
  });

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

  it('says paid in the new tab the bank app opened, though the first tab, hidden, was suspended by the phone', async () => {
    const order = await placeOrder(live.demo.storeUrl);
    const first = await checkoutTab(order.id);
    await untilScreen(first.tab, 'pay');
    const payment = await pendingPaymentOf(live.demo.sandboxUrl, order.id);
    const resume = await suspendInBackground(first.page);
    try {
      // Back from the app in a new tab of the same browser, before the service has confirmed: the same payment.
      const back = await checkoutTab(order.id, 'upi', first.page.context());
      await untilScreen(back.tab, 'pay');
      expect(
        await back.page.evaluate(() => (document.querySelector('payin-checkout') as Element & { payment?: { id: string } }).payment?.id),
      ).toBe(payment.id);
      await act(live.demo.sandboxUrl, payment.id, 'pay');
      // The tab the shopper looks at must not go on offering the payment they have just made.
      await untilScreen(back.tab, 'paid', 15_000);
    } finally {
      await resume();
      await first.page.context().close();
    }
  });

  it('says paid in the new tab the bank app opened, though a second tab of the checkout took the lead in the background and was suspended', async () => {
    const order = await placeOrder(live.demo.storeUrl);
    const first = await checkoutTab(order.id);
    await untilScreen(first.tab, 'pay');
    const payment = await pendingPaymentOf(live.demo.sandboxUrl, order.id);
    // The shopper had opened the checkout twice; the second tab waits in the background for the first to let go.
    const second = await checkoutTab(order.id, 'upi', first.page.context());
    await untilScreen(second.tab, 'pay');
    const secondTab = (await waitFor('the second tab to wait for the lock', async () => (await paymentLock(second.page)).pending[0]))!;
    await hide(second.page);
    const resumes: (() => Promise<void>)[] = [];
    try {
      // The first tab goes into the background too (the bank app opens): the second, hidden, is given the lead.
      resumes.push(await suspendInBackground(first.page));
      await waitFor('the hidden second tab to be given the lock', async () =>
        (await paymentLock(second.page)).pending.includes(secondTab) ? undefined : true,
      );
      await second.page.evaluate(() => new Promise((resolve) => setTimeout(resolve, 50))); // what it does on taking the lead
      resumes.push(await suspend(second.page));
      const back = await checkoutTab(order.id, 'upi', first.page.context());
      await untilScreen(back.tab, 'pay');
      await act(live.demo.sandboxUrl, payment.id, 'pay');
      await untilScreen(back.tab, 'paid', 15_000);
    } finally {
      for (const resume of resumes) await resume();
      await first.page.context().close();
    }
  });
});
