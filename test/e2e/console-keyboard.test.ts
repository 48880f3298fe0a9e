/**
 * The console by keyboard alone, in Chromium against the built proxy, its SQLite ledger and the sandbox
 * (support/console-world.ts): after each action the keyboard is where the operator can go on from (the control
 * pressed, the payment left, the first of the rows just shown), never back at the top of the page, where a
 * screen reader starts reading the page from its heading again.
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser } from './support/browser.js';
import { type ConsoleWorld, signInToConsole, startConsoleWorld } from './support/console-world.js';

let world: ConsoleWorld;
let browser: Browser;
let page: Page;
/** The payment at the top of the list, which the operator opens. */
let newest = '';

beforeAll(async () => {
  [world, browser] = await Promise.all([startConsoleWorld(), launchBrowser()]);
  // More than the list's page of 50.
  for (let i = 0; i < 55; i += 11) await Promise.all(Array.from({ length: 11 }, (_, k) => world.createPayment(`K-${i + k}`)));
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, locale: 'en-GB' });
  context.setDefaultTimeout(20_000);
  page = await context.newPage();
  await signInToConsole(page, `${world.shopUrl}/payin/console`);
  newest = (await page.locator('tbody tr').first().getAttribute('data-payment'))!;
});
afterAll(async () => {
  await browser?.close();
  await world?.close();
});

/** What has the keyboard: the focused element inside the console's shadow root, by its role's words. */
function focused(): Promise<string> {
  return page.evaluate(() => {
    let active = document.activeElement;
    while (active?.shadowRoot?.activeElement) active = active.shadowRoot.activeElement;
    return active ? `${active.tagName.toLowerCase()} ${active.textContent?.trim() ?? ''}` : 'nothing';
  });
}

/** Presses Tab until `name` has the keyboard (at most 200 times), as an operator tabs to a control. */
async function tabTo(name: string): Promise<void> {
  for (let i = 0; i < 200; i++) {
    if ((await focused()).endsWith(name)) return;
    await page.keyboard.press('Tab');
  }
  throw new Error(`${name} never took the keyboard`);
}

describe('the console by keyboard', () => {
  it('keeps the keyboard on Re-check now and Redeliver announcement once they are done', async () => {
    await tabTo(newest);
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { name: `Payment ${newest}` }).waitFor();
    expect(await focused()).toBe(`h2 Payment ${newest}`);
    await tabTo('Re-check now');
    await page.keyboard.press('Enter');
    await page.getByRole('status').getByText('Re-check now: unchanged').waitFor();
    expect(await focused()).toBe('button Re-check now');
    await page.keyboard.press('Tab');
    await page.keyboard.press('Enter');
    await page.getByRole('status').getByText('Redeliver announcement: sent').waitFor();
    expect(await focused()).toBe('button Redeliver announcement');
  });

  it('goes back to the payment it left, in the list read again', async () => {
    await tabTo('← Back to the list');
    await page.keyboard.press('Enter');
    await page.locator('tbody tr').first().waitFor();
    // The list is read again after the actions; the keyboard is on the same payment in it once it has come.
    await expect.poll(focused).toBe(`button ${newest}`);
    await page.waitForLoadState('networkidle');
    expect(await focused()).toBe(`button ${newest}`);
  });

  it("puts the keyboard on the first of the rows 'Show more' added", async () => {
    await tabTo('Show more');
    await page.keyboard.press('Enter');
    const first = (await page.locator('tbody tr').nth(50).getAttribute('data-payment'))!;
    await expect.poll(focused).toBe(`button ${first}`);
  });
});
