// @ts-check
/**
 * Starts the whole demo and answers with its addresses: the storefront (the shop's pages, the proxy at /payin)
 * and, unless a real payment service is configured, the sandbox with its console. Both listen on loopback; port
 * 0 picks free ports, which is what the end-to-end tests do. The storefront starts first, because the sandbox's
 * callbacks need its address and the proxy needs the sandbox's.
 */
import { createPayinProxy } from '../../dist/proxy/index.js';
import { createSandbox, DEMO_MERCHANT } from '../../dist/sandbox/index.js';
import { serve } from '../../dist/server/index.js';
import { ensureReactApp, widgetModuleBundle } from './builds.js';
import { readConfig } from './config.js';
import { createOrderBook } from './order-book.js';
import { createStorefront } from './storefront.js';

const BASE_PATH = '/payin';

/**
 * @typedef {{
 *   storeUrl: string,
 *   sandboxUrl: string | undefined,
 *   pages: { label: string, url: string }[],
 *   close(): Promise<void>,
 * }} RunningDemo
 */

/**
 * @param {Record<string, string | undefined>} env
 * @param {{ log?: (line: string) => void }} [options]
 * @returns {Promise<RunningDemo>}
 */
export async function startDemo(env, { log = console.log } = {}) {
  const config = readConfig(env);
  await ensureReactApp(log);
  const book = createOrderBook();

  /** @type {(request: Request) => Promise<Response>} */
  let storefront = async () => new Response('starting', { status: 503 });
  const store = await serve((request) => storefront(request), { port: config.port, host: config.host });
  /** @type {Array<() => Promise<void>>} */
  const closers = [() => store.close()];

  try {
    /** @type {{ baseUrl: string, merchantId: string, token: string, secret: string }} */
    let provider;
    let callbackUrl;
    let sandboxUrl;
    if (config.mode.kind === 'sandbox') {
      const sandbox = createSandbox({
        ...(config.mode.ttlSeconds ? { ttlSeconds: config.mode.ttlSeconds } : {}),
        onError: (error) => log(`[sandbox] ${error instanceof Error ? error.stack : String(error)}`),
      });
      const running = await serve(sandbox, { port: config.mode.port, host: config.host });
      closers.unshift(async () => {
        await running.close();
        await sandbox.close();
      });
      sandboxUrl = running.url;
      provider = { baseUrl: running.url, merchantId: DEMO_MERCHANT.id, token: DEMO_MERCHANT.token, secret: DEMO_MERCHANT.secret };
      callbackUrl = `${store.url}${BASE_PATH}/callback`;
    } else {
      provider = config.mode.provider;
      callbackUrl = config.mode.callbackUrl;
    }

    const proxy = createPayinProxy({
      provider,
      basePath: BASE_PATH,
      callbackUrl,
      // The shop prices the order: the browser names an order and a method, never an amount.
      resolveOrder: (orderId, method) => book.price(orderId, method),
      // The shop's records follow the service: once per new state, whatever brought the news first.
      onPaymentUpdate: (payment, { source }) => {
        book.record(payment, source);
        log(`[shop] order ${payment.orderId}: ${payment.outcome} (${payment.state}, ${payment.amount} ${payment.currency}, via ${source})`);
      },
      env: {},
    });
    storefront = createStorefront({ proxy, basePath: BASE_PATH, book, sandboxUrl, widgetModule: widgetModuleBundle() });

    const storeUrl = store.url;
    return {
      storeUrl,
      sandboxUrl,
      pages: [
        { label: 'Storefront', url: `${storeUrl}/` },
        { label: 'Plain HTML shop (script tag)', url: `${storeUrl}/shop` },
        { label: 'ES-module page', url: `${storeUrl}/module` },
        { label: 'React app', url: `${storeUrl}/react/` },
        { label: 'Strict CSP shop', url: `${storeUrl}/strict` },
        { label: "The shop's orders", url: `${storeUrl}/orders` },
        { label: 'Proxy', url: `${storeUrl}${BASE_PATH}` },
        { label: 'Callbacks', url: callbackUrl },
        ...(sandboxUrl ? [{ label: 'Sandbox console', url: `${sandboxUrl}/` }] : [{ label: 'Payment service', url: provider.baseUrl }]),
      ],
      async close() {
        for (const close of closers) await close().catch(() => {});
      },
    };
  } catch (error) {
    for (const close of closers) await close().catch(() => {});
    throw error;
  }
}
