/**
 * The phone a shopper holds, as Chromium can play it: an Android or an iPhone profile (a 375x667 touch screen and
 * that phone's user agent), and the apps the element's links would open. Chromium cannot open `intent://`,
 * `gpay://` or `bank...://` links, so an init script catches the tap on any anchor whose link is not a web page
 * (found through `event.composedPath()`, the anchor being in the element's shadow root) and sends the page to the
 * sandbox's `/phone?link=...` instead, which plays the app (docs/phone-links.md). Screens are kept under
 * test-results/phone/ to be looked at.
 */
import { mkdirSync } from 'node:fs';
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { expect } from 'vitest';
import type { SandboxPayment } from './services.js';

export type PhoneProfile = 'android' | 'iphone';

export const USER_AGENTS: Record<PhoneProfile, string> = {
  android: 'Mozilla/5.0 (Linux; Android 14; Pixel 7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36',
  iphone:
    'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1',
};

export const PHONE_SCREEN = { width: 375, height: 667 };

/**
 * In the page, `(phonePage) => void`: sends a tap on an app or bank link (any link that is not a web page) to
 * `phonePage` with the link appended. Chromium here, and WebKit's suite over WebDriver (webkit/support/iphone.ts).
 */
export const CATCH_APP_LINKS = `(phonePage) => window.addEventListener('click', (event) => {
  const anchor = event.composedPath().find((node) => node instanceof HTMLAnchorElement && node.hasAttribute('href'));
  if (!anchor) return;
  const href = anchor.getAttribute('href');
  // Web pages, and the QR image the element offers to save, open in the browser itself.
  if (/^(https?|data|blob):/i.test(href) || !/^[a-z][a-z0-9+.-]*:/i.test(href)) return;
  event.preventDefault();
  // A phone opens the app with the page still loaded, so what the tap started (copying the phone number)
  // finishes; leaving the page at once would cut it off. So the app opens a moment later.
  setTimeout(() => location.assign(phonePage + encodeURIComponent(href)), 150);
}, true)`;

/** Sends a tap on an app link to the sandbox's phone page; records the element's events and CSP violations (as browser.ts does). */
function appCatcher(sandboxUrl: string): string {
  return `(() => {
  const phonePage = ${JSON.stringify(`${sandboxUrl}/phone?link=`)};
  window.__cspViolations = [];
  window.__payinEvents = [];
  for (const type of ['payin-created', 'payin-paid']) {
    document.addEventListener(type, (event) => window.__payinEvents.push({ type, resumed: Boolean(event.detail && event.detail.resumed) }));
  }
  document.addEventListener('securitypolicyviolation', (event) => {
    window.__cspViolations.push(event.violatedDirective + ' ' + event.blockedURI);
  });
  (${CATCH_APP_LINKS})(phonePage);
})();`;
}

export async function newPhoneContext(browser: Browser, profile: PhoneProfile, sandboxUrl: string): Promise<BrowserContext> {
  const context = await browser.newContext({
    viewport: PHONE_SCREEN,
    screen: PHONE_SCREEN,
    deviceScaleFactor: 2,
    isMobile: true,
    hasTouch: true,
    userAgent: USER_AGENTS[profile],
    locale: 'en-US',
  });
  context.setDefaultTimeout(30_000);
  await context.addInitScript({ content: appCatcher(sandboxUrl) });
  return context;
}

/** Saves what the phone's screen shows (the first screen, and with `full` the whole page) as test-results/phone/<name>.png. */
export async function keepScreen(page: Page, name: string, full = false): Promise<void> {
  const dir = new URL('../../../test-results/phone/', import.meta.url);
  mkdirSync(dir, { recursive: true });
  await page.screenshot({ path: new URL(`${name}.png`, dir).pathname, animations: 'disabled', fullPage: full });
}

/** The part of `locator`'s box that lies outside the first screen, with the page unscrolled (0 when all is in it). */
export async function expectInFirstScreen(page: Page, locator: Locator, what: string): Promise<void> {
  expect(await page.evaluate(() => window.scrollY), 'the page is not scrolled').toBe(0);
  const box = await locator.boundingBox();
  expect(box, `${what} is rendered`).not.toBeNull();
  expect(box!.y, `${what} starts inside the first screen`).toBeGreaterThanOrEqual(0);
  expect(box!.y + box!.height, `${what} ends inside the first screen (${PHONE_SCREEN.height} px)`).toBeLessThanOrEqual(PHONE_SCREEN.height);
  expect(box!.x + box!.width, `${what} fits the screen's width`).toBeLessThanOrEqual(PHONE_SCREEN.width);
}

/** Nothing on the page is wider than the phone's screen (no sideways scrolling, nothing cut off). */
export async function expectNoSidewaysScroll(page: Page): Promise<void> {
  const width = await page.evaluate(() => document.documentElement.scrollWidth);
  expect(width, 'the page is no wider than the phone').toBeLessThanOrEqual(PHONE_SCREEN.width);
}

/**
 * Taps the link the way a shopper does and lands, as the phone would open the app, on the sandbox's page for
 * it; answers the link the tap opened.
 */
export async function tapThrough(page: Page, link: Locator, sandboxUrl: string): Promise<string> {
  const href = (await link.getAttribute('href'))!;
  await Promise.all([page.waitForURL((url) => url.href.startsWith(`${sandboxUrl}/phone?`)), link.tap()]);
  expect(new URL(page.url()).searchParams.get('link'), 'the phone opened the link that was tapped').toBe(href);
  return href;
}

/** In the app the sandbox plays: press Pay, see it accepted. */
export async function payInApp(page: Page): Promise<void> {
  const pay = page.locator('button.pay');
  expect(await pay.count(), 'the app shows exactly one payment to pay').toBe(1);
  await pay.tap();
  await page.locator('#status').filter({ hasText: 'Paid.' }).waitFor();
}

/** "Back to the shop" in the app: the browser goes back to the checkout. */
export async function backToShop(page: Page): Promise<void> {
  await page.locator('#back').tap();
  await page.waitForURL(/\/checkout\/[^/?]+/, { timeout: 10_000 }).catch(() => {
    throw new Error(`"Back to the shop" did not return to the checkout: the phone shows ${page.url()}`);
  });
}

/** The element's `payin-created` and `payin-paid` events on this page, with their `resumed` flag. */
export function payinEvents(page: Page): Promise<{ type: string; resumed: boolean }[]> {
  return page.evaluate(() => (window as unknown as { __payinEvents: { type: string; resumed: boolean }[] }).__payinEvents);
}

export function cspViolations(page: Page): Promise<string[]> {
  return page.evaluate(() => (window as unknown as { __cspViolations: string[] }).__cspViolations);
}

/** The link the element was handed for the payment (`payment.qr`). */
export function elementQr(page: Page): Promise<string | undefined> {
  return page.evaluate(() => (document.querySelector('payin-checkout') as Element & { payment?: { qr?: string } }).payment?.qr);
}

/** The payment's C2B link (`https://qr.nspk.ru/...`) in the sandbox, if it has one. */
export function c2bLinkOf(payment: SandboxPayment): string | undefined {
  return (payment as SandboxPayment & { media?: string[] }).media?.find((m) => m.startsWith('https://qr.nspk.ru/'));
}

/** The UPI link of the NPCI linking spec for a payment, built here independently of the element (as qr.test.ts). */
export function expectedUpiQuery(payment: SandboxPayment, amount: string): string {
  const e = encodeURIComponent;
  const { address, recipient } = payment.requisites!;
  return `pa=${e(address)}&pn=${e(recipient ?? address)}&am=${amount}&cu=INR&tr=${e(payment.orderId)}&tn=${e(`Order ${payment.orderId}`)}`;
}

/** What the app the sandbox plays shows about the payment: its label → value rows (Payee, Amount, Reference...). */
export function appShows(page: Page): Promise<Record<string, string>> {
  return page
    .locator('main dl')
    .evaluate((dl) =>
      Object.fromEntries(
        [...dl.querySelectorAll('dt')].map((dt) => [dt.textContent!.trim(), dt.nextElementSibling?.textContent?.trim() ?? '']),
      ),
    );
}

/** The size a fingertip hits without missing (Apple's and Android's guidance), in CSS px. */
export const FINGER_PX = 44;

/** The element's visible controls smaller than a fingertip, each as `part "text" width x height`. */
export function smallTargets(page: Page): Promise<string[]> {
  return page.locator('payin-checkout').evaluate((el, min) => {
    const controls = el.shadowRoot!.querySelectorAll<HTMLElement>('a[href], button, input, summary');
    return [...controls].flatMap((control) => {
      const { width, height } = control.getBoundingClientRect();
      if (!width || !height || (width >= min && height >= min)) return [];
      const name = control.getAttribute('part') ?? control.tagName.toLowerCase();
      return [`${name} "${control.textContent!.trim()}" ${Math.round(width)}x${Math.round(height)}`];
    });
  }, FINGER_PX);
}
