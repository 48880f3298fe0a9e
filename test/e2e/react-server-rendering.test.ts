/**
 * docs/element.md's React 19 example in a server-rendered app, as Next.js and the like run it: rendered to HTML by
 * react-dom/server, then hydrated in Chromium over the ES module build, against the proxy and the sandbox on
 * loopback. React 19 hydrates a custom element without setting its properties or adding its `on<event>`
 * listeners (react/react#35446), and its server writes a camelCase prop as a lowercase attribute the element
 * does not know (`orderId` becomes `orderid`): the example must still give the element its order, start the
 * payment, and hear it paid, with no hydration warning. Bundles the example with esbuild; run `npm run build` first.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { build, type Plugin } from 'esbuild';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, newContext } from './support/browser.js';
import { type BundledShop, startBundledShop } from './support/bundled-shop.js';
import { act, pendingPaymentOf, waitFor } from './support/services.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const ORDER = 'SSR-1';

/** The tsx block of docs/element.md's "React 19" section. */
function reactExample(): string {
  const page = readFileSync(join(ROOT, 'docs/element.md'), 'utf8');
  const section = page.slice(page.indexOf('### React 19'));
  const block = /```tsx\n([\s\S]*?)```/.exec(section)?.[1];
  if (!block) throw new Error('docs/element.md has no tsx block under "### React 19"');
  return block;
}

/** The example as a module named `docs-example`, resolving its imports from the repository (the package from dist/). */
const docsExample: Plugin = {
  name: 'docs-example',
  setup(build) {
    build.onResolve({ filter: /^docs-example$/ }, () => ({ path: 'docs-example', namespace: 'docs' }));
    build.onLoad({ filter: /.*/, namespace: 'docs' }, () => ({ contents: reactExample(), loader: 'tsx', resolveDir: ROOT }));
  },
};

async function bundle(entry: string, outdir: string, platform: 'node' | 'browser'): Promise<void> {
  await build({
    stdin: { contents: entry, loader: 'tsx', resolveDir: ROOT },
    bundle: true,
    format: 'esm',
    splitting: platform === 'browser',
    platform,
    jsx: 'automatic',
    outdir,
    entryNames: 'entry',
    alias: { 'payin-checkout': './dist/widget/index.js' },
    // React's development build, which reports hydration mismatches.
    define: { 'process.env.NODE_ENV': '"development"' },
    plugins: [docsExample],
    logLevel: 'silent',
  });
}

let browser: Browser;
let shop: BundledShop;
let dir: string;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'payin-react-ssr-'));
  await bundle(
    `import { renderToString } from 'react-dom/server';
     import { Checkout } from 'docs-example';
     export const html = renderToString(<Checkout orderId="${ORDER}" />);`,
    join(dir, 'server'),
    'node',
  );
  await bundle(
    `import { hydrateRoot } from 'react-dom/client';
     import { Checkout } from 'docs-example';
     hydrateRoot(document.getElementById('root'), <Checkout orderId="${ORDER}" />);`,
    join(dir, 'client'),
    'browser',
  );
  const { html } = (await import(pathToFileURL(join(dir, 'server/entry.js')).href)) as { html: string };
  const page = `<!doctype html><html lang="en"><link rel="icon" href="data:,"><body><div id="root">${html}</div><script type="module" src="/entry.js"></script></body></html>`;

  shop = await startBundledShop(page, join(dir, 'client'));
  browser = await launchBrowser();
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await shop?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe("docs/element.md's React example, server-rendered and hydrated", () => {
  it('gives the element its order, pays, and hears the payment paid, without a hydration warning', async () => {
    const context = await newContext(browser);
    const page = await context.newPage();
    const said: string[] = [];
    page.on('console', (message) => said.push(`${message.type()}: ${message.text()}`));
    page.on('pageerror', (error) => said.push(`pageerror: ${error.message}`));
    await page.goto(`${shop.url}/`);

    // The example autostarts: the order reaches the element, and the proxy creates its payment.
    await expect.poll(() => page.evaluate(() => document.querySelector('payin-checkout')?.orderId), { timeout: 10_000 }).toBe(ORDER);
    const payment = await pendingPaymentOf(shop.sandboxUrl, ORDER);
    await act(shop.sandboxUrl, payment.id, 'pay');
    await waitFor('the example to log the payment paid', () => said.find((line) => line === 'log: paid 499.00'), 20_000);
    expect(said.filter((line) => /^(error|pageerror)/.test(line))).toEqual([]);
    await context.close();
  }, 60_000);
});
