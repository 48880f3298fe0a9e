/**
 * The operator's console in Chromium when the browser sees the shop under /shop, which a front server takes off
 * before the shop (and the proxy in it, mounted at /payin) sees the request: what Next's basePath does, and nginx's
 * `location /shop/ { proxy_pass http://shop/; }`. Against the built proxy, its SQLite ledger and the sandbox
 * (support/console-world.ts). Every request the page makes, its stylesheet, script, sign-in form, redirect and
 * API calls, must stay inside /shop/payin/ and be answered. Before, the login page's stylesheet and form pointed at
 * /payin/console/..., which the front answers 404, and the operator could not sign in.
 */
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser } from './support/browser.js';
import { type ConsoleWorld, signInToConsole, startConsoleWorld } from './support/console-world.js';
import { pendingPaymentOf } from './support/services.js';

let world: ConsoleWorld;
let browser: Browser;
let context: BrowserContext;
let page: Page;
const requests: { url: string; status: number }[] = [];

beforeAll(async () => {
  [world, browser] = await Promise.all([startConsoleWorld('token', { underPrefix: '/shop' }), launchBrowser()]);
  context = await browser.newContext({ viewport: { width: 1280, height: 900 }, locale: 'en-GB' });
  context.setDefaultTimeout(20_000);
  page = await context.newPage();
  page.on('response', (response) => void requests.push({ url: response.url(), status: response.status() }));
});
afterAll(async () => {
  await browser?.close();
  await world?.close();
});

describe('the console under /shop, which the shop never sees', () => {
  it('signs in, lists, opens a payment and re-checks it, every request inside /shop/payin/', async () => {
    const { id } = await world.createPayment('MB-1');
    await pendingPaymentOf(world.sandboxUrl, 'MB-1');
    const consoleUrl = `${world.publicUrl}/payin/console`;
    await signInToConsole(page, consoleUrl);
    expect(page.url()).toBe(consoleUrl);

    await page.getByLabel('Order id or payment id').fill('MB-1');
    await page.getByRole('button', { name: 'Find' }).click();
    await page.getByRole('button', { name: id, exact: true }).click();
    await page.getByRole('heading', { name: `Payment ${id}` }).waitFor();
    await page.getByRole('button', { name: 'Re-check now' }).click();
    await page
      .getByRole('status')
      .getByText(/Re-check now: /)
      .waitFor();

    const inside = `${world.publicUrl}/payin/`;
    // The one answer of 4xx: the login page, which the console serves with 401 before sign-in.
    const refused = requests.filter((r) => r.status >= 400 && !(r.status === 401 && r.url === consoleUrl));
    expect([requests.filter((r) => !r.url.startsWith(inside)), refused]).toEqual([[], []]);
    for (const route of ['/console.css', '/console.js', '/login', '/api/session', '/api/payments', `/api/payments/${id}/recheck`]) {
      expect(
        requests.some((r) => new URL(r.url).pathname.startsWith(`${new URL(inside).pathname}console${route}`)),
        route,
      ).toBe(true);
    }
    const session = (await context.cookies()).find((c) => c.name === 'payin_console');
    expect(session?.path).toBe('/shop/payin/console');
    // Chromium asks the origin for its icon by itself; nothing else may have left /shop.
    expect(world.refusedByFront.filter((path) => path !== '/favicon.ico')).toEqual([]);
  });
});
