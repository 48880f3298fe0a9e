/**
 * The script-tag checkout on pages that are not a clean demo: pages that add the script twice or as a module,
 * replace built-ins the core relies on, shrink the root font size, send a Trusted Types policy, or load the script
 * from a CDN on another origin. On each, a shopper on a phone pays in Hindi, so that the phone, app-chooser and
 * results parts and a language file load beside the core (or, where they cannot, the core alone takes the
 * payment), and the page logs no error. Reads the files the build wrote; run `npm run build` first (the test
 * command does).
 */
import { fileURLToPath } from 'node:url';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serve } from '../../src/server/serve.js';
import { cspViolations, launchBrowser, newContext } from './support/browser.js';
import { type BundledShop, fileServer, startBundledShop } from './support/bundled-shop.js';
import { PHONE_SCREEN, smallTargets, USER_AGENTS } from './support/phone.js';
import { act, pendingPaymentOf, sandboxPayments } from './support/services.js';
import { waitForScreen } from './support/shopper.js';

const DIST = fileURLToPath(new URL('../../dist', import.meta.url));
const PHONE = { viewport: PHONE_SCREEN, isMobile: true, hasTouch: true, userAgent: USER_AGENTS.android };
const CORE = '<script src="/payin-checkout.iife.js"></script>';

let browser: Browser;
let shop: BundledShop;
/** The page the shop serves next: each test sets it. (Served, not routed: Chromium counts a routed page as public, and refuses it a loopback CDN.) */
let page = '';
beforeAll(async () => {
  browser = await launchBrowser();
  shop = await startBundledShop(() => page, DIST);
});
afterAll(async () => {
  await browser?.close();
  await shop?.close();
});

let orders = 0;

interface Paid {
  /** The page's uncaught errors. */
  errors: string[];
  warnings: string[];
  violations: string[];
  /** The language the element spoke. */
  lang: string | null;
}

/**
 * Opens a page of `head` (the page's own tags) and an element for a new order on a phone, in Hindi, and pays;
 * with `parts`, once the app chooser is there (and `onPayScreen` has looked at it), and sees the paid amount the
 * results part draws.
 */
async function payOnPage(head: string, parts = true, onPayScreen?: (tab: Page) => Promise<void>): Promise<Paid> {
  const orderId = `HOST-${++orders}-${Date.now()}`;
  page = `<!doctype html><html lang="en"><meta name="viewport" content="width=device-width">${head}
    <payin-checkout endpoint="/payin" order-id="${orderId}" method="upi" lang="hi" autostart></payin-checkout></html>`;
  const context = await newContext(browser, PHONE);
  const tab = await context.newPage();
  const errors: string[] = [];
  const warnings: string[] = [];
  tab.on('pageerror', (error) => errors.push(error.message));
  tab.on('console', (message) => {
    if (message.type() === 'warning') warnings.push(message.text());
  });
  await tab.goto(`${shop.url}/`);
  await waitForScreen(tab, 'pay');
  if (parts) await tab.locator('payin-checkout [part~="app-link"]').first().waitFor();
  await onPayScreen?.(tab);
  const lang = await tab.locator('payin-checkout [part~="base"]').getAttribute('lang');
  const payment = await pendingPaymentOf(shop.sandboxUrl, orderId);
  await act(shop.sandboxUrl, payment.id, 'pay');
  await waitForScreen(tab, 'paid');
  if (parts) await tab.locator('payin-checkout [part~="paid-amount"]').waitFor();
  expect((await sandboxPayments(shop.sandboxUrl)).filter((p) => p.orderId === orderId)).toHaveLength(1);
  const violations = await cspViolations(tab);
  await context.close();
  return { errors, warnings, violations, lang };
}

describe('the script-tag checkout on a page that changes built-ins', () => {
  it('draws its language and parts on a page that replaced window.Promise (a polyfill, Bluebird)', async () => {
    // What a promise library installed as the page's Promise does: the browser's own promises are no longer `instanceof Promise`.
    const paid = await payOnPage(`<script>window.Promise = class ShopPromise extends Promise {};</script>${CORE}`);
    expect(paid).toMatchObject({ errors: [], lang: 'hi' });
  });
});

describe('the script-tag checkout under a page that wraps EventSource', () => {
  it('opens its status stream again after one was refused, when EventSource is a function without its constants', async () => {
    // An error-tracking or analytics library's wrapper: a plain function, so EventSource.CLOSED is undefined.
    const wrapper =
      '<script>{ const Native = EventSource; window.eventSources = []; window.EventSource = function (url, init) { const stream = new Native(url, init); eventSources.push(stream); return stream; }; }</script>';
    page = `<!doctype html><html lang="en">${wrapper}${CORE}
      <payin-checkout endpoint="/payin" order-id="WRAPPED-${Date.now()}" method="upi" lang="en" autostart></payin-checkout></html>`;
    const context = await newContext(browser, {});
    const tab = await context.newPage();
    let streams = 0;
    // The proxy refuses the stream (a 404: as one without event streams would), which EventSource does not retry.
    await tab.route('**/payin/events?*', (route) => {
      streams++;
      return route.fulfill({ status: 404, body: '' });
    });
    await tab.goto(`${shop.url}/`);
    await waitForScreen(tab, 'pay');
    await expect.poll(() => streams, { timeout: 5_000 }).toBe(1);
    // The refusal reaches the page a moment after the route answered; the browser marks the stream CLOSED (2) in the
    // task that tells the checkout, so from then on the checkout has put it aside.
    const firstState = () => tab.evaluate(() => (window as unknown as { eventSources: EventSource[] }).eventSources[0].readyState);
    await expect.poll(firstState, { timeout: 5_000 }).toBe(2);
    // Back online: a refused stream was put aside, so the checkout tries a new one.
    await tab.evaluate(() => window.dispatchEvent(new Event('online')));
    await expect.poll(() => streams, { timeout: 5_000 }).toBe(2);
    await context.close();
  });
});

describe('the script-tag checkout added twice', () => {
  it('pays once, with its parts and language, when the page has the script tag twice', async () => {
    // A template and a plugin that each add it: the second copy defines nothing and loads nothing more.
    const paid = await payOnPage(CORE + CORE);
    expect(paid).toMatchObject({ errors: [], warnings: [], lang: 'hi' });
  });
});

describe('the script-tag checkout loaded another way than a plain script tag', () => {
  it('finds its parts and language beside itself when the page loads it as a module script', async () => {
    // A module script has no document.currentScript, which is how the core knew where it was.
    const paid = await payOnPage('<script type="module" src="/payin-checkout.iife.js"></script>');
    expect(paid).toMatchObject({ errors: [], warnings: [], lang: 'hi' });
  });
});

describe("the script-tag checkout under a page's global CSS", () => {
  it('keeps its text readable and its controls finger-sized on a page whose root font size is 10px (Bootstrap 3)', async () => {
    // Bootstrap 3 sets html { font-size: 10px }, and many shops still have it (or the 62.5% of the same trick).
    const paid = await payOnPage(`<style>html { font-size: 10px } body { font-size: 14px }</style>${CORE}`, true, async (tab) => {
      const fontSize = await tab.locator('payin-checkout [part~="base"]').evaluate((base) => getComputedStyle(base).fontSize);
      expect(fontSize).toBe('16px');
      expect(await smallTargets(tab)).toEqual([]);
    });
    expect(paid).toMatchObject({ errors: [], lang: 'hi' });
  });
});

describe("the script-tag checkout's size on a page whose root font size is 10px, on a desktop", () => {
  it('is as wide and as spaced as on any page: 28 and 1 times its 16px text', async () => {
    page = `<!doctype html><html lang="en"><style>html { font-size: 10px }</style>${CORE}
      <payin-checkout endpoint="/payin" order-id="HOST-WIDE-${Date.now()}" method="upi" autostart></payin-checkout></html>`;
    const context = await newContext(browser);
    const tab = await context.newPage();
    await tab.goto(`${shop.url}/`);
    await waitForScreen(tab, 'pay');
    const { width, padding } = await tab.locator('payin-checkout').evaluate((element) => ({
      width: element.getBoundingClientRect().width,
      padding: getComputedStyle(element.shadowRoot!.querySelector('.base')!).paddingTop,
    }));
    // Not 280 and 10: the element's lengths follow its own font size, not the page's root.
    expect({ width, padding }).toEqual({ width: 448, padding: '16px' });
    await context.close();
  });
});

describe('the script-tag checkout under Trusted Types', () => {
  it("loads its parts and language on a page that requires Trusted Types and allows Lit's policy", async () => {
    const csp = `require-trusted-types-for 'script'; trusted-types lit-html`;
    const paid = await payOnPage(`<meta http-equiv="Content-Security-Policy" content="${csp}">${CORE}`);
    expect(paid).toMatchObject({ errors: [], violations: [], lang: 'hi' });
  });

  it("pays beside the page's own Lit, which made the lit-html policy first, when the policy allows duplicates", async () => {
    const csp = `require-trusted-types-for 'script'; trusted-types shop lit-html 'allow-duplicates'`;
    const ownLit = `<script>trustedTypes.createPolicy('lit-html', { createHTML: (s) => s });</script>`;
    const paid = await payOnPage(`<meta http-equiv="Content-Security-Policy" content="${csp}">${ownLit}${CORE}`);
    expect(paid).toMatchObject({ errors: [], violations: [], lang: 'hi' });
  });
});

describe('the script-tag checkout from a CDN on another origin', () => {
  let cdns: Awaited<ReturnType<typeof serve>>[] = [];
  afterAll(async () => {
    await Promise.all(cdns.map((cdn) => cdn.close()));
  });
  /** A CDN (another port, so another origin) that serves the built files with `headers`; answers the page's tag for the core. */
  const cdn = async (headers: Record<string, string>) => {
    const server = await serve(fileServer(DIST, headers));
    cdns = [...cdns, server];
    return `<script src="${server.url}/payin-checkout.iife.js"></script>`;
  };

  it('loads its parts and language from beside the script when the CDN sends Access-Control-Allow-Origin', async () => {
    const paid = await payOnPage(await cdn({ 'access-control-allow-origin': '*' }));
    expect(paid).toMatchObject({ errors: [], warnings: [], lang: 'hi' });
  });

  it('takes the payment with the core alone, in English, when the CDN sends no CORS headers', async () => {
    // Parts and languages are modules, which a browser fetches with CORS; the core is a classic script, which it does not.
    const paid = await payOnPage(await cdn({}), false);
    expect(paid).toMatchObject({ errors: [], lang: 'en' });
    for (const part of ['phone', 'upi-apps', 'results']) expect(paid.warnings.join('\n')).toContain(`the "${part}" part did not load`);
    expect(paid.warnings.join('\n')).toContain('the "hi" texts did not load');
  });
});
