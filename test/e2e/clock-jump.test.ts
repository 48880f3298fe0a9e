/**
 * A phone whose clock is set while the shopper pays (the network's time arrives, the shopper corrects it, a time
 * zone set by hand): the checkout counts down the time the service gives the payment and goes on following it, so
 * that a payment made after the jump is shown paid. Playwright's clock moves the page's Date by the jump without
 * running its timers, as the phone's clock does.
 */
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { newContext } from './support/browser.js';
import { act, pendingPaymentOf } from './support/services.js';
import { checkoutOnShop, waitForScreen } from './support/shopper.js';
import { useDemo } from './support/use-demo.js';

const live = useDemo();

const HOUR = 3_600_000;

/** Seconds the countdown shows ("14:52" -> 892). */
async function shownSeconds(page: Page): Promise<number> {
  const text = await page.locator('payin-checkout [part="countdown"] [role="timer"]').textContent();
  return text!
    .trim()
    .split(':')
    .reduce((a, b) => a * 60 + Number(b), 0);
}

/** What the element's flow holds: the screen, and whether following has stopped (the "Check again" notice). */
const flowOf = (page: Page) =>
  page.evaluate(() => {
    const el = document.querySelector('payin-checkout') as Element & { screen: string };
    return { screen: el.screen, checkAgain: !!el.shadowRoot!.querySelector('[part="check-button"]') };
  });

describe('a phone whose clock is set while paying', () => {
  for (const [how, jump] of [
    ['an hour ahead', HOUR],
    ['an hour back', -HOUR],
  ] as const) {
    it(`shows the payment's time and sees it paid after the clock is set ${how}`, async () => {
      const context = await newContext(live.browser);
      await context.clock.install();
      const page = await context.newPage();
      const orderId = await checkoutOnShop(page, live.demo.storeUrl, '/shop', 'upi');
      await waitForScreen(page, 'pay');
      await page.locator('payin-checkout [part="countdown"] [role="timer"]').waitFor();
      const before = await shownSeconds(page);

      const pageNow = await page.evaluate(() => Date.now());
      await context.clock.setSystemTime(pageNow + jump);
      // The page's next 3 s on its own clock, its timers run as they come due: no wait on the test's clock.
      await context.clock.runFor(3_000);
      const after = await flowOf(page);
      const left = await shownSeconds(page);
      console.log(`clock set ${how}: ${before} s shown before, ${left} s 3 s after; ${JSON.stringify(after)}`);
      expect(after).toEqual({ screen: 'pay', checkAgain: false });
      expect(left).toBeGreaterThanOrEqual(before - 10);
      expect(left).toBeLessThanOrEqual(before);

      await act(live.demo.sandboxUrl, (await pendingPaymentOf(live.demo.sandboxUrl, orderId)).id, 'pay');
      await waitForScreen(page, 'paid', 20_000);
      await context.close();
    });
  }
});
