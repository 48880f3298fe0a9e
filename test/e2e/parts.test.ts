/**
 * The script-tag build as a core and the parts it loads beside itself (src/widget/parts/): a shop that serves
 * every file, one that serves only the core, and one that lacks each part in turn all take a payment on a phone,
 * under the strict Content-Security-Policy. A missing part costs what it draws (the app chooser, the QR image,
 * the result's icon and amount) with a console warning; the QR and the requisites are always there. On a desktop
 * the phone part is never fetched.
 */
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { cspViolations, newContext } from './support/browser.js';
import { act, pendingPaymentOf } from './support/services.js';
import { checkoutOnShop, expectPaidAndAnnouncedOnce, waitForScreen } from './support/shopper.js';
import { useDemo } from './support/use-demo.js';

const live = useDemo();

const PARTS = ['phone', 'qr-image', 'results'] as const;
type Part = (typeof PARTS)[number];

const PHONE = { viewport: { width: 375, height: 667 }, isMobile: true, hasTouch: true } as const;

const shows = (page: Page, part: string) => page.locator(`payin-checkout [part~="${part}"]`).count();

/** A payment on the strict shop with `missing` parts answered 404; answers what the page fetched and warned. */
async function payWithout(missing: readonly Part[], options = PHONE): Promise<{ fetched: string[]; warnings: string[]; page: Page }> {
  const context = await newContext(live.browser, options);
  const page = await context.newPage();
  const fetched: string[] = [];
  const warnings: string[] = [];
  page.on('request', (r) => {
    const name = /\/payin-checkout\.([\w-]+)\.part\.js$/.exec(new URL(r.url()).pathname)?.[1];
    if (name) fetched.push(name);
  });
  page.on('console', (m) => {
    if (m.type() === 'warning') warnings.push(m.text());
  });
  for (const part of missing) {
    await page.route(`**/payin-checkout.${part}.part.js`, (route) => route.fulfill({ status: 404, body: 'not found' }));
  }
  const orderId = await checkoutOnShop(page, live.demo.storeUrl, '/strict', 'upi');
  await waitForScreen(page, 'pay');
  // The QR and the requisites, with or without any part.
  await page.locator('payin-checkout [part~="qr"]').waitFor({ state: 'attached' });
  await page.locator('payin-checkout [part~="requisites"]').waitFor();

  const onPhone = options === PHONE;
  if (onPhone) {
    if (missing.includes('phone')) {
      await expect.poll(() => warnings.join('\n')).toContain('the "phone" part did not load');
      expect(await shows(page, 'app-chooser')).toBe(0);
      await page.locator('payin-checkout [part~="instruction"]').waitFor();
    } else {
      await page.locator('payin-checkout [part~="app-chooser"]').waitFor();
    }
    await page.locator('payin-checkout [part~="other-device-toggle"]').click();
    await page.locator('payin-checkout [part~="qr"]').waitFor();
    if (missing.includes('qr-image')) {
      await expect.poll(() => warnings.join('\n')).toContain('the "qr-image" part did not load');
      expect(await shows(page, 'save-link')).toBe(0);
    } else {
      await page.locator('payin-checkout [part~="save-link"]').waitFor();
    }
  }

  const payment = await pendingPaymentOf(live.demo.sandboxUrl, orderId, 'upi');
  await act(live.demo.sandboxUrl, payment.id, 'pay');
  await waitForScreen(page, 'paid');
  await page.locator('payin-checkout').getByRole('heading', { name: 'Payment received' }).waitFor();
  if (missing.includes('results')) {
    await expect.poll(() => warnings.join('\n')).toContain('the "results" part did not load');
    expect(await shows(page, 'result-icon')).toBe(0);
  } else {
    await page.locator('payin-checkout [part~="paid-amount"]').waitFor();
  }
  await expectPaidAndAnnouncedOnce(live.demo.storeUrl, live.demo.sandboxUrl, orderId, { amount: '499.00', currency: 'INR' });
  expect(await cspViolations(page)).toEqual([]);
  await context.close();
  return { fetched, warnings, page };
}

describe('the script-tag build and its parts', () => {
  it('takes a payment on a phone with every part served, fetching each once and warning of nothing', async () => {
    const { fetched, warnings } = await payWithout([]);
    expect([...fetched].sort()).toEqual([...PARTS].sort());
    expect(warnings.filter((w) => w.includes('payin-checkout'))).toEqual([]);
  });

  it('takes a payment on a phone from a shop that serves only the core file', async () => {
    const { warnings } = await payWithout(PARTS);
    for (const part of PARTS) expect(warnings.join('\n')).toContain(`the "${part}" part did not load`);
  });

  for (const part of PARTS) {
    it(`takes a payment on a phone when the ${part} part cannot load`, async () => {
      const { warnings } = await payWithout([part]);
      expect(warnings.filter((w) => w.includes('part did not load'))).toEqual([expect.stringContaining(`"${part}"`)]);
    });
  }

  it('fetches no phone part on a desktop', async () => {
    const { fetched } = await payWithout([], { viewport: { width: 1100, height: 900 } } as unknown as typeof PHONE);
    expect(fetched).toEqual(['results']);
  });
});
