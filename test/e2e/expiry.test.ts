/**
 * A payment nobody pays: with a short SANDBOX_TTL_SECONDS the element counts down to the real expiry, then says
 * the time is up but that a payment already made is still being checked (the grace window, 5 minutes, which the
 * page's clock skips), and only then that the time ran out; the shop hears "expired" once; starting again makes a
 * new payment for the same order, which can still be paid.
 */
import { describe, expect, it } from 'vitest';
import { newContext } from './support/browser.js';
import { useDemo } from './support/use-demo.js';
import { act, pendingPaymentOf, sandboxPayments, shopOrder, waitFor } from './support/services.js';
import { checkoutOnShop, expectOneFinalEvent, expectShopListShows, waitForScreen } from './support/shopper.js';
import { backAfterExpiry, call } from './support/coming-back.js';

const TTL_SECONDS = 5;
const live = useDemo({ SANDBOX_TTL_SECONDS: String(TTL_SECONDS) });

describe('an unpaid payment', () => {
  it('expires on time, is announced expired once, and a new payment can follow', async () => {
    const context = await newContext(live.browser);
    await context.clock.install(); // time flows, until the test skips the grace window
    const page = await context.newPage();
    const orderId = await checkoutOnShop(page, live.demo.storeUrl, '/shop', 'upi');
    await waitForScreen(page, 'pay');
    await page.locator('payin-checkout [part="countdown"]').waitFor();

    await waitForScreen(page, 'late', (TTL_SECONDS + 20) * 1000);
    await page.locator('payin-checkout [part="late-notice"]', { hasText: 'do not pay again' }).waitFor();
    expect(await page.locator('payin-checkout [part="restart-button"]').count()).toBe(0);
    await context.clock.fastForward('05:30');
    await waitForScreen(page, 'expired', 20_000);
    await page.getByRole('heading', { name: 'Time ran out' }).waitFor();
    await expectOneFinalEvent(page, 'payin-expired');
    await expectShopListShows(page, orderId, 'expired');
    const order = await waitFor('the expired callback', async () => {
      const o = await shopOrder(live.demo.storeUrl, orderId);
      return o.status === 'expired' ? o : undefined;
    });
    expect(order.announcements.filter((a) => a.outcome === 'expired')).toHaveLength(1);

    await page.locator('payin-checkout [part="restart-button"]').click();
    await waitFor('a second payment for the order', async () => {
      const list = (await sandboxPayments(live.demo.sandboxUrl)).filter((p) => p.orderId === orderId);
      return list.length === 2 ? list : undefined;
    });
    await waitForScreen(page, 'pay');
    const second = await pendingPaymentOf(live.demo.sandboxUrl, orderId);
    await act(live.demo.sandboxUrl, second.id, 'pay');
    await waitForScreen(page, 'paid');
    await expectShopListShows(page, orderId, 'paid');
    await context.close();
  });

  it('says "late" (still checking, do not pay again), never failed, to a shopper back after the expiry', async () => {
    const context = await newContext(live.browser);
    const page = await context.newPage();
    const orderId = await checkoutOnShop(page, live.demo.storeUrl, '/shop', 'upi');
    const tab = { run: <T>(fn: string, ...args: unknown[]) => page.evaluate(call(fn, args)) as Promise<T> };
    expect(await backAfterExpiry(tab, live.demo.sandboxUrl, orderId)).toBe('late');
    await page.locator('payin-checkout [part="late-notice"]', { hasText: 'do not pay again' }).waitFor();
    await context.close();
  });
});
