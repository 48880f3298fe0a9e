/**
 * A single-page app's shop: `entry` (a module that imports 'payin-checkout') bundled with esbuild over the
 * package's ES module build, as an app's bundler does (splitting, so the parts and languages load on demand), and
 * served by a bundled shop (bundled-shop.ts) on a page that loads it. Run `npm run build` first.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll } from 'vitest';
import { launchBrowser, newContext } from './browser.js';
import { type BundledShop, startBundledShop } from './bundled-shop.js';

const ROOT = fileURLToPath(new URL('../../..', import.meta.url));

const PAGE =
  '<!doctype html><html lang="en"><link rel="icon" href="data:,"><script type="module" src="/entry.js"></script><body></body></html>';

/** `define`: esbuild's replacements, for a framework's build flags (React and Vue read `process.env.NODE_ENV`). */
export async function startAppShop(entry: string, define: Record<string, string> = {}): Promise<BundledShop> {
  const dir = mkdtempSync(join(tmpdir(), 'payin-app-'));
  await build({
    stdin: { contents: entry, resolveDir: ROOT },
    bundle: true,
    format: 'esm',
    splitting: true,
    outdir: dir,
    entryNames: 'entry',
    define,
    alias: { 'payin-checkout': './dist/widget/index.js' },
    logLevel: 'silent',
  });
  const shop = await startBundledShop(PAGE, dir);
  return {
    ...shop,
    async close() {
      await shop.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

export interface LiveAppShop {
  readonly shop: BundledShop;
  /**
   * A page of the shop in a context of its own, once the entry has defined `window.checkout`; `initScript` runs
   * before the page's own scripts (to count what the element opens, say).
   */
  open(initScript?: string): Promise<Page>;
}

/**
 * The app shop of `entry` and a headless Chromium, started once per test file and stopped after it, as useDemo does
 * for the demo: a file calls this at the top and reads `live.shop` and opens pages in its tests.
 */
export function useAppShop(entry: string, define?: Record<string, string>): LiveAppShop {
  const live = {} as { shop: BundledShop; browser: Browser };
  beforeAll(async () => {
    live.shop = await startAppShop(entry, define);
    live.browser = await launchBrowser();
  }, 60_000);
  afterAll(async () => {
    await live.browser?.close();
    await live.shop?.close();
  });
  return {
    get shop() {
      return live.shop;
    },
    async open(initScript) {
      const context = await newContext(live.browser);
      if (initScript !== undefined) await context.addInitScript({ content: initScript });
      const page = await context.newPage();
      await page.goto(`${live.shop.url}/`);
      await page.waitForFunction(() => 'checkout' in window);
      return page;
    },
  };
}
