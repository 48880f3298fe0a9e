/**
 * The script-tag core is a classic script, and a browser decodes a classic script in the page's encoding unless
 * the server names another: a shop whose pages are still in windows-1252 or windows-1251, serving the file as
 * plain `text/javascript`, would show its English texts mangled ("Preparing payment detailsâ€¦"). Parts and
 * language files are modules, which a browser always reads as UTF-8. Reads the file the build just wrote; run
 * `npm run build` first (the test command does).
 */
import { readFileSync } from 'node:fs';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, newContext } from './support/browser.js';

const CORE = new URL('../../dist/payin-checkout.iife.js', import.meta.url);

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

describe('the script-tag core on a page that is not UTF-8', () => {
  for (const charset of ['windows-1252', 'windows-1251']) {
    it(`writes its English texts as they are on a ${charset} page`, async () => {
      const context = await newContext(browser);
      const page = await context.newPage();
      await page.route('https://shop.test/**', async (route) => {
        const { pathname } = new URL(route.request().url());
        if (pathname === '/payin-checkout.iife.js') {
          return route.fulfill({ contentType: 'text/javascript', body: readFileSync(CORE) });
        }
        // The create never answers: the shopper stays on "Preparing payment details…".
        if (pathname === '/payin/payments') return;
        return route.fulfill({
          contentType: `text/html; charset=${charset}`,
          body: `<!doctype html><html lang="en"><meta charset="${charset}"><script src="/payin-checkout.iife.js"></script>
            <payin-checkout endpoint="/payin" order-id="A-1" method="upi" autostart></payin-checkout></html>`,
        });
      });
      await page.goto('https://shop.test/');
      const heading = page.locator('payin-checkout [part~="heading"]');
      await expect.poll(() => heading.textContent(), { timeout: 10_000 }).toBe('Preparing payment details…');
      await context.close();
    });
  }
});
