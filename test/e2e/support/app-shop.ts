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
import { type BundledShop, startBundledShop } from './bundled-shop.js';

const ROOT = fileURLToPath(new URL('../../..', import.meta.url));

const PAGE =
  '<!doctype html><html lang="en"><link rel="icon" href="data:,"><script type="module" src="/entry.js"></script><body></body></html>';

export async function startAppShop(entry: string): Promise<BundledShop> {
  const dir = mkdtempSync(join(tmpdir(), 'payin-app-'));
  await build({
    stdin: { contents: entry, resolveDir: ROOT },
    bundle: true,
    format: 'esm',
    splitting: true,
    outdir: dir,
    entryNames: 'entry',
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
