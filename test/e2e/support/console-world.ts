/**
 * The operator's console as a shop runs it, for the end-to-end suite: the built package's proxy (dist/) with the
 * console behind a token, its SQLite ledger, the embedded sandbox of the payment service, and a shop whose hook
 * the test can take down and bring back. The service's callbacks pass through a switch, so that a test can lose
 * them (answered 200 and dropped, as a broken network path to the shop would) and see the console find the truth,
 * or have the service say something else about a payment than the sandbox did (which never contradicts itself).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { type PrefixFront, startPrefixFront } from '../../support/prefix-front.js';

export const CONSOLE_TOKEN = 'end-to-end-console-token-0123456789';

interface Dist {
  createPayinProxy: (options: Record<string, unknown>) => ((request: Request) => Promise<Response>) & { close(): Promise<void> };
  consoleTokenAuth: (token: string) => unknown;
  silentLogger: unknown;
  createSandbox: (options: Record<string, unknown>) => ((request: Request) => Promise<Response>) & { close(): Promise<void> };
  DEMO_MERCHANT: { id: string; token: string; secret: string };
  serve: (
    handler: (request: Request) => Promise<Response>,
    options?: Record<string, unknown>,
  ) => Promise<{ url: string; close(): Promise<void> }>;
  createSqliteStore: (options: { path: string }) => { close(): Promise<void> };
  signBody: (secret: string, body: string) => Promise<string>;
}

export interface Announcement {
  paymentId: string;
  orderId: string;
  state: string;
  outcome: string;
  secondPaymentOf?: string;
}

export interface ConsoleWorld {
  shopUrl: string;
  /**
   * Where the browser reaches the shop: its own address, or, for a world started with `underPrefix`, the front
   * server that strips that prefix (`http://127.0.0.1:<port>/shop`).
   */
  publicUrl: string;
  /** The paths the front refused, outside the prefix (none should be). */
  refusedByFront: string[];
  sandboxUrl: string;
  announcements: Announcement[];
  hookDown: boolean;
  /** What the shop's hook throws while it is down. */
  hookError: string;
  dropCallbacks: boolean;
  /** While true, every call into the ledger fails, as a database that went away does. */
  storeDown: boolean;
  /**
   * While set, the service's status answers report every payment in this currency (signed again with the
   * merchant's secret), as a service that settles in its own currency does: the sandbox reports the one it was
   * asked for.
   */
  serviceCurrency: string | undefined;
  /**
   * While true, the service refuses every status call as not knowing the payment (HTTP 200, `status: false`, code
   * 404, signed with the merchant's secret), as the live service does when asked about a sandbox's payment.
   */
  serviceForgets: boolean;
  /**
   * The service contradicts what it said of a payment: from now on its status answers report `state` (`status`
   * true when finished), and its last callback for the payment is delivered again with that state, signed with the
   * merchant's secret, as a service does when the payer's money comes after the expiry or a paid payment is
   * reversed. Resolves with the proxy's HTTP status.
   */
  contradict(paymentId: string, state: string): Promise<number>;
  /** What a shopper's page does: creates a payment for the order and method. */
  createPayment(orderId: string, method?: string): Promise<{ id: string }>;
  close(): Promise<void>;
}

/** Signs `page` in through the console's login form, as an operator does, and waits for the list. */
export async function signInToConsole(page: Page, consoleUrl: string): Promise<void> {
  await page.goto(consoleUrl);
  await page.getByLabel(/Console token/).fill(CONSOLE_TOKEN);
  await page.getByRole('button', { name: /Sign in/ }).click();
  await page.getByRole('heading', { name: 'Payments' }).waitFor();
}

const dist = async (path: string) => import(new URL(`../../../dist/${path}`, import.meta.url).href);

/**
 * Who lets operators in: the console's token form (what the standalone server does), or the shop's own sign-in,
 * here a `shop_staff` cookie that the shop's /staff/sign-in sets and /staff/sign-out takes away.
 */
export type ConsoleSignIn = 'token' | 'shop';

/**
 * `underPrefix` ('/shop') puts a front server before the shop that serves it under that prefix and strips it (as
 * Next's basePath or nginx's `location /shop/ { proxy_pass http://shop/; }` do), and tells the proxy so
 * (`publicBasePath`).
 */
export async function startConsoleWorld(
  signIn: ConsoleSignIn = 'token',
  { underPrefix }: { underPrefix?: string } = {},
): Promise<ConsoleWorld> {
  const [proxyModule, sandboxModule, serverModule, sqliteModule, hmacModule] = await Promise.all([
    dist('proxy/index.js'),
    dist('sandbox/index.js'),
    dist('server/index.js'),
    dist('sqlite/index.js'),
    dist('shared/hmac.js'),
  ]);
  const { createPayinProxy, consoleTokenAuth, silentLogger, createSandbox, DEMO_MERCHANT, serve, createSqliteStore, signBody } = {
    ...proxyModule,
    ...sandboxModule,
    ...serverModule,
    ...sqliteModule,
    ...hmacModule,
  } as Dist;
  const dir = mkdtempSync(join(tmpdir(), 'payin-console-e2e-'));
  const store = createSqliteStore({ path: join(dir, 'ledger.db') });
  const sandbox = createSandbox({ requisitesDelayMs: 0, callbackRetryDelayMs: 200 });
  const sandboxServer = await serve(sandbox);

  const world = {
    announcements: [] as Announcement[],
    hookDown: false,
    hookError: 'the shop database is down',
    dropCallbacks: false,
    storeDown: false,
    serviceCurrency: undefined,
    serviceForgets: false,
  } as ConsoleWorld;
  // What each payment's state is at the service when a test contradicts the sandbox (`contradict`).
  const serviceSays = new Map<string, string>();
  // The last callback the sandbox delivered for each payment, as text.
  const lastCallbacks = new Map<string, string>();
  // The proxy's calls to the service, through the currency, the contradiction and the refusal switches.
  const signed = async (text: string, status = 200, headers = new Headers({ 'content-type': 'application/json' })) => {
    headers.set('signature', await signBody(DEMO_MERCHANT.secret, text));
    return new Response(text, { status, headers });
  };
  const toService = async (input: RequestInfo | URL, init?: RequestInit): Promise<Response> => {
    if (world.serviceForgets && String(input).endsWith('/api/v2/status')) {
      return signed(JSON.stringify({ status: false, code: 404, message: 'no payment for this id among the merchant payments' }));
    }
    const answer = await fetch(input, init);
    const currency = world.serviceCurrency;
    if ((!currency && serviceSays.size === 0) || !String(input).endsWith('/api/v2/status')) return answer;
    // The payment itself, an array of them, or the documented envelope around either.
    const body = (await answer.json()) as { result?: unknown };
    for (const payment of [body.result ?? body].flat()) {
      if (!payment || typeof payment !== 'object') continue;
      if (currency) Object.assign(payment, { currency });
      const state = serviceSays.get(String((payment as { id?: unknown }).id));
      if (state) Object.assign(payment, { state, status: state === 'finished' });
    }
    return signed(JSON.stringify(body), answer.status, new Headers(answer.headers));
  };
  // The proxy's view of the ledger: the SQLite store, failing every call while `storeDown` is set.
  const ledger = new Proxy(store, {
    get(target, name) {
      const value = Reflect.get(target, name, target);
      if (typeof value !== 'function') return value;
      return (...args: unknown[]) => {
        if (world.storeDown) return Promise.reject(new Error('the ledger database is down'));
        return value.apply(target, args);
      };
    },
  });
  let proxy: ReturnType<Dist['createPayinProxy']> | undefined;
  const shopServer = await serve(async (request) => {
    const path = new URL(request.url).pathname;
    if (path === '/payin/callback' && world.dropCallbacks) return new Response('', { status: 200 });
    if (path === '/payin/callback') {
      const text = await request.clone().text();
      lastCallbacks.set(String((JSON.parse(text) as { id?: unknown }).id), text);
    }
    if (path.startsWith('/payin')) return proxy!(request);
    if (path === '/staff/sign-in' || path === '/staff/sign-out') {
      const value = path === '/staff/sign-in' ? 'shop_staff=ana; Path=/; HttpOnly' : 'shop_staff=; Path=/; Max-Age=0';
      return new Response('the shop', { headers: { 'content-type': 'text/plain', 'set-cookie': value } });
    }
    return new Response('the shop', { headers: { 'content-type': 'text/plain' } });
  });
  proxy = createPayinProxy({
    provider: { baseUrl: sandboxServer.url, merchantId: DEMO_MERCHANT.id, token: DEMO_MERCHANT.token, secret: DEMO_MERCHANT.secret },
    callbackUrl: `${shopServer.url}/payin/callback`,
    store: ledger,
    reconcileEveryMs: 0,
    env: {},
    fetch: toService,
    // A console test may fill more than one page of the list (50 rows) from this one client.
    limits: { createsPerMinute: 600 },
    // The hook fails on purpose in one test: its errors are what the console shows, not noise for the log.
    logger: silentLogger,
    console:
      signIn === 'token'
        ? consoleTokenAuth(CONSOLE_TOKEN)
        : {
            authorizeOperator: (request: Request) => /(?:^|;\s*)shop_staff=ana(?:;|$)/.test(request.headers.get('cookie') ?? ''),
            operatorName: () => 'ana',
          },
    ...(underPrefix ? { publicBasePath: `${underPrefix}/payin` } : {}),
    // One sum, in the currency the method's rails carry (the sandbox refuses an sbp payment in rupees).
    resolveOrder: (_orderId: string, method: string) => ({ amount: '499.00', currency: method === 'sbp' ? 'RUB' : 'INR' }),
    onPaymentUpdate: (payment: { id: string; orderId: string; state: string; outcome: string }, info: { secondPaymentOf?: string }) => {
      if (world.hookDown) throw new Error(world.hookError);
      world.announcements.push({
        paymentId: payment.id,
        orderId: payment.orderId,
        state: payment.state,
        outcome: payment.outcome,
        ...(info.secondPaymentOf ? { secondPaymentOf: info.secondPaymentOf } : {}),
      });
    },
  });

  const front: PrefixFront | undefined = underPrefix ? await startPrefixFront(shopServer.url, underPrefix) : undefined;
  return Object.assign(world, {
    shopUrl: shopServer.url,
    publicUrl: front ? `${front.url}${underPrefix}` : shopServer.url,
    refusedByFront: front?.refused ?? [],
    sandboxUrl: sandboxServer.url,
    async createPayment(orderId: string, method = 'upi') {
      const answer = await fetch(`${shopServer.url}/payin/payments`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ orderId, method }),
      });
      if (!answer.ok) throw new Error(`create answered ${answer.status}: ${await answer.text()}`);
      return ((await answer.json()) as { payment: { id: string } }).payment;
    },
    async contradict(paymentId: string, state: string) {
      const last = lastCallbacks.get(paymentId);
      if (!last) throw new Error(`the sandbox delivered no callback for ${paymentId} yet`);
      serviceSays.set(paymentId, state);
      const text = JSON.stringify({ ...JSON.parse(last), state, status: state === 'finished' });
      const answer = await fetch(`${shopServer.url}/payin/callback`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', signature: await signBody(DEMO_MERCHANT.secret, text) },
        body: text,
        signal: AbortSignal.timeout(10_000),
      });
      await answer.body?.cancel();
      return answer.status;
    },
    async close() {
      await front?.close();
      await proxy?.close();
      await shopServer.close();
      await sandboxServer.close();
      await sandbox.close();
      await store.close();
      rmSync(dir, { recursive: true, force: true });
    },
  });
}
