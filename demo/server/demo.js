// @ts-check
/**
 * Starts the whole demo and answers with its addresses: the storefront (the shop's pages, the proxy at /payin)
 * and, unless a real payment service is configured, the sandbox with its console. Both listen on loopback; port
 * 0 picks free ports, which is what the end-to-end tests do. The storefront starts first, because the sandbox's
 * callbacks need its address and the proxy needs the sandbox's.
 */
import { randomBytes } from 'node:crypto';
import { consoleTokenAuth, createPayinProxy } from '../../dist/proxy/index.js';
import { createSandbox, DEMO_MERCHANT } from '../../dist/sandbox/index.js';
import { rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describeStoreUrl, serve, storeFromUrl, storeUrlFromEnv, storeWarning } from '../../dist/server/index.js';
import { ensureReactApp, widgetModuleBundle } from './builds.js';
import { readConfig } from './config.js';
import { listenProblem } from './listen-problem.js';
import { createOrderBook } from './order-book.js';
import { createStorefront } from './storefront.js';

const BASE_PATH = '/payin';

/**
 * @typedef {{
 *   storeUrl: string,
 *   sandboxUrl: string | undefined,
 *   pages: { label: string, url: string }[],
 *   consoleToken: string,
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
  const store = await serve((request) => storefront(request), { port: config.port, host: config.host }).catch((error) => {
    throw listenProblem(error, 'PORT', config.host, config.port);
  });
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
        sbpShape: config.mode.sbpShape,
        onError: (error) => log(`[sandbox] ${error instanceof Error ? error.stack : String(error)}`),
      });
      const sandboxPort = config.mode.port;
      const running = await serve(sandbox, { port: sandboxPort, host: config.host }).catch((error) => {
        sandbox.close();
        throw listenProblem(error, 'SANDBOX_PORT', config.host, sandboxPort);
      });
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

    // The ledger on SQLite. With the embedded sandbox, which forgets its payments when it stops, each run gets
    // a fresh file; against a real service the file is kept in .payin/ so that restarts lose nothing.
    const runFile = config.mode.kind === 'sandbox' ? join(tmpdir(), `payin-demo-${process.pid}-${Date.now()}.db`) : undefined;
    const storeUrl = storeUrlFromEnv(env) ?? (runFile ? `sqlite:${runFile}` : 'sqlite:./.payin/payin.db');
    const proxyStore = await storeFromUrl(storeUrl);
    closers.push(async () => {
      await proxyStore.close?.();
      if (runFile) for (const suffix of ['', '-wal', '-shm']) rmSync(`${runFile}${suffix}`, { force: true });
    });
    // Never the URL itself: a database URL carries its password.
    log(`[demo] proxy store: ${describeStoreUrl(storeUrl)}`);
    const storeProblem = storeWarning(storeUrl);
    if (storeProblem) log(`[demo] warning: ${storeProblem}`);

    // The operator's console: PAYIN_CONSOLE_TOKEN, else a fresh token for this run, printed by `npm start`.
    const consoleToken = env.PAYIN_CONSOLE_TOKEN?.trim() || randomBytes(18).toString('base64url');
    const proxy = createPayinProxy({
      store: proxyStore,
      console: consoleTokenAuth(consoleToken),
      // The SBP bank chooser's member list: the sandbox's stand-in, so that the demo works offline.
      ...(sandboxUrl ? { sbpBanksUrl: `${sandboxUrl}/proxyapp/c2bmembers.json` } : {}),
      provider,
      basePath: BASE_PATH,
      callbackUrl,
      // The bank app sends an SBP payer back to the order's checkout, which resumes the payment and shows the truth
      // (UPI apps hand back to the browser by themselves).
      returnUrl: ({ orderId, method }) =>
        method === 'sbp' ? `${store.url}/shop/checkout/${encodeURIComponent(orderId)}?method=sbp` : undefined,
      // The shop prices the order: the browser names an order and a method, never an amount.
      resolveOrder: (orderId, method) => book.price(orderId, method),
      // The shop's records follow the service: once per new state, whatever brought the news first.
      onPaymentUpdate: (payment, { source, secondPaymentOf }) => {
        book.record(payment, source);
        const second = secondPaymentOf ? `, a second payment: refund it (order paid by ${secondPaymentOf})` : '';
        log(
          `[shop] order ${payment.orderId}: ${payment.outcome} (${payment.state}, ${payment.amount} ${payment.currency}, via ${source}${second})`,
        );
      },
      env: {},
    });
    closers.unshift(() => proxy.close());
    storefront = createStorefront({ proxy, basePath: BASE_PATH, book, sandboxUrl, widgetModule: widgetModuleBundle() });

    return {
      storeUrl: store.url,
      sandboxUrl,
      consoleToken,
      pages: [
        { label: 'Storefront', url: `${store.url}/` },
        { label: 'Plain HTML shop (script tag)', url: `${store.url}/shop` },
        { label: 'ES-module page', url: `${store.url}/module` },
        { label: 'React app', url: `${store.url}/react/` },
        { label: 'Strict CSP shop', url: `${store.url}/strict` },
        { label: "The shop's orders", url: `${store.url}/orders` },
        { label: 'Operator console', url: `${store.url}${BASE_PATH}/console` },
        { label: 'Proxy', url: `${store.url}${BASE_PATH}` },
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
