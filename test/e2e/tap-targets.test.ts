/**
 * Every control a shopper taps on the phone is at least 44 by 44 CSS px (the size a fingertip hits without
 * missing, Apple's and Android's guidance), on each screen of the walk: the method choice, the UPI pay screen,
 * its "didn't open?" notice after a tap that opened no app, the "choose another method" way back, and the SBP
 * pay screen with its bank search. The screens are kept in test-results/phone/ to be looked at.
 */
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { newContext } from './support/browser.js';
import { keepScreen, PHONE_SCREEN, smallTargets, USER_AGENTS } from './support/phone.js';
import { placeOrder } from './support/services.js';
import { waitForScreen } from './support/shopper.js';
import { useDemo } from './support/use-demo.js';

const live = useDemo();

async function expectFingerSized(page: Page, screen: string): Promise<void> {
  await keepScreen(page, `tap-targets-${screen}`);
  expect(await smallTargets(page), `the controls of ${screen} a finger cannot hit`).toEqual([]);
}

describe('on a phone, every control is big enough for a finger', () => {
  it('from the method choice through UPI, an app that did not open, and back to SBP', async () => {
    // No app answers here: a tap on an app link leaves the page as it was, as on a phone without the app.
    const context = await newContext(live.browser, {
      viewport: PHONE_SCREEN,
      screen: PHONE_SCREEN,
      deviceScaleFactor: 2,
      isMobile: true,
      hasTouch: true,
      userAgent: USER_AGENTS.android,
    });
    const page = await context.newPage();
    const order = await placeOrder(live.demo.storeUrl);
    await page.goto(`${live.demo.storeUrl}/shop/checkout/${encodeURIComponent(order.id)}?method=choice`);
    await waitForScreen(page, 'choose');
    await expectFingerSized(page, 'choose');

    await page.locator('payin-checkout [part="method-button"]', { hasText: 'UPI' }).tap();
    await waitForScreen(page, 'pay');
    const app = page.locator('payin-checkout [part="app-link"]').first();
    await app.evaluate((link) => link.addEventListener('click', (event) => event.preventDefault()));
    await expectFingerSized(page, 'upi-pay');
    await app.tap();
    await page.locator('payin-checkout [part="notice"]').waitFor({ timeout: 10_000 });
    await expectFingerSized(page, 'upi-did-not-open');

    await page.locator('payin-checkout [part="other-method-button"]').tap();
    await waitForScreen(page, 'choose');
    await page.locator('payin-checkout [part="method-button"]', { hasText: 'SBP' }).tap();
    await waitForScreen(page, 'pay');
    await page.locator('payin-checkout [part="bank-search"]').waitFor();
    await expectFingerSized(page, 'sbp-pay');
    await context.close();
  });
});
