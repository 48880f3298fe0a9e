/**
 * The console behind the shop's own sign-in (authorizeOperator over the shop's session, no token form), in
 * Chromium against the built proxy, its SQLite ledger and the sandbox (support/console-world.ts): the shop signs
 * its staff in and out, and the console follows.
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser } from './support/browser.js';
import { type ConsoleWorld, startConsoleWorld } from './support/console-world.js';

let world: ConsoleWorld;
let browser: Browser;
let page: Page;

beforeAll(async () => {
  [world, browser] = await Promise.all([startConsoleWorld('shop'), launchBrowser()]);
  await world.createPayment('S-1');
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, locale: 'en-GB' });
  context.setDefaultTimeout(20_000);
  page = await context.newPage();
});
afterAll(async () => {
  await browser?.close();
  await world?.close();
});

describe("the console behind the shop's own sign-in", () => {
  it('sends whoever the shop has not signed in to sign in there, on a page', async () => {
    await page.goto(`${world.shopUrl}/payin/console`);
    await page.getByText('Sign in to the shop as one of its operators, then open this page again.').waitFor();
  });

  it('offers no Sign out of its own, which could not sign the operator out of the shop', async () => {
    await page.goto(`${world.shopUrl}/staff/sign-in`);
    await page.goto(`${world.shopUrl}/payin/console`);
    await page.locator('tbody tr').first().waitFor();
    expect(await page.getByRole('button', { name: 'Sign out' }).count()).toBe(0);
  });

  it("sends the open console to the shop's sign-in once the shop has signed the operator out", async () => {
    const other = await page.context().newPage();
    await other.goto(`${world.shopUrl}/staff/sign-out`);
    await other.close();
    await page.locator('button[data-filter="paid"]').click();
    await page.getByText('Sign in to the shop as one of its operators, then open this page again.').waitFor();
  });
});
