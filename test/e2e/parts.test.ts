/**
 * The script-tag build as a core and the parts it loads beside itself (src/widget/parts/): a shop that serves
 * every file, one that serves only the core, and one that lacks each part in turn all take a payment on a phone,
 * under the strict Content-Security-Policy. A missing part costs what it draws (the app chooser,
 * the result's icon and amount) with a console warning; the QR and the requisites are always there. The QR comes
 * drawn from the matrix the proxy sends, so the qr-encoder part is fetched only when an answer lacks it: then the
 * part draws the same QR, and without that part too the requisites alone take the payment. On a desktop the phone
 * part is never fetched. The screens are kept in test-results/parts/ for a person to look at.
 */
import { mkdirSync } from 'node:fs';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { cspViolations, newContext } from './support/browser.js';
import { PHONE_SCREEN, USER_AGENTS } from './support/phone.js';
import { decodeQr } from './support/read-qr.js';
import { act, pendingPaymentOf } from './support/services.js';
import { checkoutOnShop, expectPaidAndAnnouncedOnce, waitForScreen } from './support/shopper.js';
import { useDemo } from './support/use-demo.js';

const live = useDemo();

/** The parts of a payment's journey; qr-encoder is a fallback, fetched only for an answer without the QR's matrix. */
const JOURNEY_PARTS = ['phone', 'upi-apps', 'sbp-banks', 'results'] as const;
const PARTS = [...JOURNEY_PARTS, 'qr-encoder'] as const;
type Part = (typeof PARTS)[number];
type Method = 'upi' | 'sbp';

// An Android phone: its links open apps by package (a desktop user agent would get no bank links at all).
const PHONE = { viewport: PHONE_SCREEN, isMobile: true, hasTouch: true, userAgent: USER_AGENTS.android };
const DESKTOP = { viewport: { width: 1100, height: 900 } };

const shows = (page: Page, part: string) => page.locator(`payin-checkout [part~="${part}"]`).count();

/**
 * A payment by `method` on the strict shop with the `missing` parts answered 404, on a phone unless `desktop`;
 * answers the parts the page fetched and the warnings it logged.
 */
async function pay(
  method: Method,
  missing: readonly Part[],
  desktop = false,
  noMatrix = false,
): Promise<{ fetched: string[]; warnings: string[] }> {
  const parts = missing.length === PARTS.length ? 'core-only' : missing.length ? `without-${missing.join('-')}` : 'all';
  const shot = `parts-${method}-${desktop ? 'desktop' : 'phone'}-${parts}${noMatrix ? '-no-matrix' : ''}`;
  const context = await newContext(live.browser, desktop ? DESKTOP : PHONE);
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
  const warned = (part: Part) => expect.poll(() => warnings.join('\n')).toContain(`the "${part}" part did not load`);
  for (const part of missing) {
    await page.route(`**/payin-checkout.${part}.part.js`, (route) => route.fulfill({ status: 404, body: 'not found' }));
  }
  if (noMatrix) await withoutQrMatrix(page);
  const orderId = await checkoutOnShop(page, live.demo.storeUrl, '/strict', method);
  await waitForScreen(page, 'pay');
  // The QR and the requisites, with or without any part; no QR only with neither the proxy's matrix nor the encoder.
  const noQr = noMatrix && missing.includes('qr-encoder');
  if (noQr) {
    await warned('qr-encoder');
    await page.locator('payin-checkout [part~="instruction"]').waitFor({ state: 'attached' });
    expect(await shows(page, 'qr')).toBe(0);
  } else {
    await page.locator('payin-checkout [part~="qr"]').waitFor({ state: 'attached' });
  }
  await page.locator('payin-checkout [part~="requisites"]').waitFor();

  if (!desktop && missing.includes('phone')) {
    // The desktop layout: the QR in view beside the requisites, nothing folded.
    await warned('phone');
    if (!noQr) await page.locator('payin-checkout [part~="qr"]').waitFor();
    expect(await shows(page, 'other-device')).toBe(0);
  } else if (!desktop) {
    const chooser = method === 'sbp' ? 'sbp-banks' : 'upi-apps';
    if (missing.includes(chooser)) {
      await warned(chooser);
      await page.locator('payin-checkout [part~="instruction"]').waitFor();
      expect(await shows(page, method === 'sbp' ? 'bank-chooser' : 'app-chooser')).toBe(0);
    } else {
      const links = page.locator(`payin-checkout [part~="${method === 'sbp' ? 'bank-link' : 'app-link'}"]`);
      await links.first().waitFor();
      if (method === 'upi') expect(await links.last().textContent()).toContain('Any UPI app');
    }
    // The fold unfolds to the QR and a way to keep it (the phone part draws the image then). Its English came
    // with the part: the core carries only the English of its own screens.
    const toggle = page.locator('payin-checkout [part~="other-device-toggle"]');
    expect(await toggle.textContent()).toBe('Pay from another device');
    await toggle.click();
    await page.locator('payin-checkout [part~="qr"]').waitFor();
    await page.locator('payin-checkout [part~="save-link"]').waitFor();
  }

  if (noMatrix && !noQr) {
    // Drawn by the built qr-encoder part: it reads back as exactly the payment's text.
    const qr = page.locator('payin-checkout [part~="qr"]');
    const text = await page.locator('payin-checkout').evaluate((el) => (el as HTMLElement & { payment?: { qr?: string } }).payment?.qr);
    expect(text).toMatch(/^upi:\/\/pay\?/);
    expect(decodeQr(await qr.screenshot({ animations: 'disabled' }))).toBe(text);
  }
  await keepElement(page, `${shot}-pay`);
  const payment = await pendingPaymentOf(live.demo.sandboxUrl, orderId, method);
  await act(live.demo.sandboxUrl, payment.id, 'pay');
  await waitForScreen(page, 'paid');
  await page.locator('payin-checkout').getByRole('heading', { name: 'Payment received' }).waitFor();
  if (missing.includes('results')) {
    await warned('results');
    expect(await shows(page, 'result-icon')).toBe(0);
  } else {
    expect(await page.locator('payin-checkout [part~="paid-amount"]').textContent()).toMatch(/^Paid .*\d\.\d\d\.$/);
  }
  await keepElement(page, `${shot}-paid`);
  const { amount, currency } = payment;
  await expectPaidAndAnnouncedOnce(live.demo.storeUrl, live.demo.sandboxUrl, orderId, { amount, currency });
  expect(await cspViolations(page)).toEqual([]);
  await context.close();
  return { fetched, warnings };
}

/**
 * The proxy's answers as a proxy that sends no QR matrix would give them: the create and status answers without
 * `qrMatrix`, and no event stream (the element then polls the status).
 */
async function withoutQrMatrix(page: Page): Promise<void> {
  await page.route('**/payin/events?*', (route) => route.fulfill({ status: 404, body: 'not found' }));
  await page.route(/\/payin\/(payments|status)$/, async (route) => {
    const answer = await route.fetch();
    const body = await answer.json();
    if (body.payment) delete body.payment.qrMatrix;
    await route.fulfill({ response: answer, json: body });
  });
}

/**
 * Saves the screen, scrolled to the element's top, as test-results/parts/<name>.png: a shot of the viewport, since
 * a full-page or element shot resizes the page and drops the touch emulation (the phone layout with it).
 */
async function keepElement(page: Page, name: string): Promise<void> {
  const dir = new URL('../../test-results/parts/', import.meta.url);
  mkdirSync(dir, { recursive: true });
  await page.locator('payin-checkout').evaluate((element) => element.scrollIntoView());
  await page.screenshot({ path: new URL(`${name}.png`, dir).pathname, animations: 'disabled' });
}

const partWarnings = (warnings: string[]) => warnings.filter((w) => w.includes('part did not load'));

describe('the script-tag build and its parts', () => {
  it('takes a UPI payment on a phone with every part served, fetching those it needs once and warning of nothing', async () => {
    const { fetched, warnings } = await pay('upi', []);
    expect([...fetched].sort()).toEqual(['phone', 'results', 'upi-apps']);
    expect(partWarnings(warnings)).toEqual([]);
  });

  it('takes an SBP payment on a phone with every part served, the bank chooser from its own part', async () => {
    const { fetched, warnings } = await pay('sbp', []);
    expect([...fetched].sort()).toEqual(['phone', 'results', 'sbp-banks']);
    expect(partWarnings(warnings)).toEqual([]);
  });

  it('takes a payment on a phone from a shop that serves only the core file', async () => {
    const { warnings } = await pay('upi', PARTS);
    expect(partWarnings(warnings).length).toBeGreaterThan(0);
  });

  it('takes a payment on a desktop from a shop that serves only the core file', async () => {
    const { warnings } = await pay('sbp', PARTS, true);
    expect(partWarnings(warnings)).toEqual([expect.stringContaining('"results"')]);
  });

  it('takes a payment on a phone when the answers carry no QR matrix: the qr-encoder part draws the QR', async () => {
    const { fetched, warnings } = await pay('upi', [], false, true);
    expect([...fetched].sort()).toEqual(['phone', 'qr-encoder', 'results', 'upi-apps']);
    expect(partWarnings(warnings)).toEqual([]);
  });

  it('takes a payment on a desktop with no QR matrix and a shop that serves only the core file: the requisites', async () => {
    const { warnings } = await pay('upi', PARTS, true, true);
    expect(partWarnings(warnings).sort()).toEqual([expect.stringContaining('"qr-encoder"'), expect.stringContaining('"results"')]);
  });

  for (const part of JOURNEY_PARTS) {
    const method: Method = part === 'sbp-banks' ? 'sbp' : 'upi';
    it(`takes a ${method.toUpperCase()} payment on a phone when the ${part} part cannot load`, async () => {
      const { warnings } = await pay(method, [part]);
      expect(partWarnings(warnings)).toEqual([expect.stringContaining(`"${part}"`)]);
    });
  }

  it('loads a part that failed on a poor network once the phone is back online: the phone layout replaces the plain one', async () => {
    const context = await newContext(live.browser, PHONE);
    const page = await context.newPage();
    const fetched: string[] = [];
    page.on('request', (r) => {
      if (r.url().endsWith('/payin-checkout.phone.part.js')) fetched.push(r.url());
    });
    await page.route('**/payin-checkout.phone.part.js', (route) => route.abort('internetdisconnected'));
    await checkoutOnShop(page, live.demo.storeUrl, '/strict', 'upi');
    await waitForScreen(page, 'pay');
    await page.locator('payin-checkout [part~="requisites"]').waitFor();
    expect(await shows(page, 'app-chooser')).toBe(0);
    await page.unroute('**/payin-checkout.phone.part.js');
    await context.setOffline(true);
    await context.setOffline(false);
    // The countdown draws the screen every second, and that draw asks for the part again.
    await page.locator('payin-checkout [part~="app-chooser"]').waitFor();
    expect(fetched).toHaveLength(2);
    await context.close();
  });

  it('fetches no phone part on a desktop', async () => {
    const { fetched } = await pay('upi', [], true);
    expect(fetched).toEqual(['results']);
  });
});
