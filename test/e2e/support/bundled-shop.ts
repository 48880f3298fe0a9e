/**
 * A shop that serves a page and the files an esbuild bundle wrote, with the proxy under /payin, against the
 * sandbox of the payment service on loopback: what a single-page app or a server-rendered one is to the element
 * in the ES module build. Every order costs 499.00 INR.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createPayinProxy, type PayinProxy, silentLogger } from '../../../src/proxy/index.js';
import { createSandbox, DEMO_MERCHANT } from '../../../src/sandbox/index.js';
import { serve } from '../../../src/server/serve.js';

export interface BundledShop {
  url: string;
  sandboxUrl: string;
  close(): Promise<void>;
}

/** Serves `page` at `/` (a function: the page of each request) and the files of `dir` beside it (as JavaScript). */
export async function startBundledShop(page: string | (() => string), dir: string): Promise<BundledShop> {
  const sandbox = createSandbox({ requisitesDelayMs: 0 });
  const sandboxServer = await serve(sandbox);
  let proxy!: PayinProxy;
  const files = fileServer(dir);
  const shop = await serve(async (request) => {
    const { pathname } = new URL(request.url);
    if (pathname.startsWith('/payin/')) return proxy(request);
    const html = { 'content-type': 'text/html; charset=utf-8' };
    if (pathname === '/') return new Response(typeof page === 'string' ? page : page(), { headers: html });
    return files(request);
  });
  // The service's callbacks reach the shop, as they do a shop on the internet: a checkout hears "paid" when it is
  // made, not at its event stream's next status refresh (pingMs, 8 s), which is all a callback sent nowhere left.
  proxy = createPayinProxy({
    provider: { baseUrl: sandboxServer.url, merchantId: DEMO_MERCHANT.id, token: DEMO_MERCHANT.token, secret: DEMO_MERCHANT.secret },
    callbackUrl: `${shop.url}/payin/callback`,
    resolveOrder: async () => ({ amount: '499.00', currency: 'INR' }),
    logger: silentLogger,
  });
  return {
    url: shop.url,
    sandboxUrl: sandboxServer.url,
    async close() {
      await shop.close();
      await proxy.close();
      sandbox.close();
      await sandboxServer.close();
    },
  };
}

/** A handler that serves the files of `dir` as JavaScript with `headers` (what a CDN is to the page), else 404. */
export function fileServer(dir: string, headers: Record<string, string> = {}): (request: Request) => Response {
  return (request) => {
    try {
      const file = readFileSync(join(dir, new URL(request.url).pathname.replace(/\.\./g, '')));
      return new Response(file, { headers: { 'content-type': 'text/javascript; charset=utf-8', ...headers } });
    } catch {
      return new Response('not found', { status: 404 });
    }
  };
}
