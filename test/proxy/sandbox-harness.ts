/**
 * The real sandbox and the proxy, each on its own loopback socket, wired the way a shop runs them: the proxy
 * signs requests to the sandbox, and the sandbox delivers its callbacks to the proxy's /payin/callback. The
 * sandbox's handler is wrapped to count the API requests that reach it.
 */
import { createPayinProxy, type PayinProxy, type PayinProxyOptions } from '../../src/proxy/index.js';
import { silentLogger } from '../../src/proxy/logger.js';
import { toNodeListener } from '../../src/server/node-listener.js';
import { serve, type RunningServer } from '../../src/server/serve.js';
import { createSandbox, type Sandbox, type SandboxOptions } from '../../src/sandbox/index.js';
import type { PaymentView } from '../../src/shared/payment-view.js';

/** A small seeded generator, so that fault rates give the same run every time. */
export function seeded(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** What the proxy answered a browser's POST: the status, the parsed body, and the Retry-After header (null without one). */
export interface ProxyAnswer {
  status: number;
  body: any;
  retryAfter: string | null;
}

export interface Live {
  sandbox: Sandbox;
  proxy: PayinProxy;
  proxyUrl: string;
  sandboxUrl: string;
  /** API requests that reached the sandbox, by path; `answered` once the sandbox has answered one. */
  apiCalls: { path: string; at: number; answered: boolean }[];
  updates: { payment: PaymentView; source: string }[];
  create(orderId: string, method?: string, extra?: Record<string, unknown>): Promise<ProxyAnswer>;
  status(paymentId: string, token: string): Promise<ProxyAnswer>;
  /**
   * The shop's server restarted: the proxy is closed and one made with these options (over the first's, a fresh
   * memory store unless one is given) answers on the same socket, so the sandbox's callbacks still reach it.
   */
  restart(proxyOptions?: Partial<PayinProxyOptions>): Promise<void>;
  close(): Promise<void>;
}

export async function startLive(proxyOptions: Partial<PayinProxyOptions> = {}, sandboxOptions: SandboxOptions = {}): Promise<Live> {
  const apiCalls: Live['apiCalls'] = [];
  const sandbox = createSandbox({ requisitesDelayMs: 0, callbackRetryDelayMs: 20, random: seeded(7), ...sandboxOptions });
  const sandboxServer: RunningServer = await serve(async (request) => {
    const path = new URL(request.url).pathname;
    if (!path.startsWith('/api/')) return sandbox(request);
    const call = { path, at: Date.now(), answered: false };
    apiCalls.push(call);
    try {
      return await sandbox(request);
    } finally {
      call.answered = true;
    }
  });
  // Listening before the proxy exists, since its callback address names the port; mounted as a shop mounts it.
  const proxyServer = await serve(() => new Response('starting', { status: 503 }));
  const updates: Live['updates'] = [];
  const make = (options: Partial<PayinProxyOptions>) =>
    createPayinProxy({
      provider: { baseUrl: sandboxServer.url, merchantId: 'demo-merchant', token: 'demo-token', secret: 'demo-secret' },
      callbackUrl: `${proxyServer.url}/payin/callback`,
      // One sum, in the currency the method's rails carry (the sandbox refuses an sbp payment in rupees).
      resolveOrder: (orderId, method) =>
        orderId.startsWith('missing') ? null : { amount: '499.00', currency: method === 'sbp' ? 'RUB' : 'INR' },
      onPaymentUpdate: (payment, { source }) => {
        updates.push({ payment, source });
      },
      logger: silentLogger,
      env: {},
      ...options,
    });
  const mount = (made: PayinProxy) => {
    proxyServer.server.removeAllListeners('request');
    proxyServer.server.on('request', toNodeListener(made));
    return made;
  };
  let proxy = mount(make(proxyOptions));
  const postJson = async (path: string, body: unknown): Promise<ProxyAnswer> => {
    const response = await fetch(`${proxyServer.url}/payin${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    return { status: response.status, body: (await response.json()) as any, retryAfter: response.headers.get('retry-after') };
  };
  return {
    sandbox,
    get proxy() {
      return proxy;
    },
    proxyUrl: proxyServer.url,
    sandboxUrl: sandboxServer.url,
    apiCalls,
    updates,
    create: (orderId, method = 'upi', extra = {}) => postJson('/payments', { orderId, method, ...extra }),
    status: (paymentId, token) => postJson('/status', { paymentId, token }),
    restart: async (options = {}) => {
      await proxy.close();
      proxy = mount(make({ ...proxyOptions, ...options }));
    },
    close: async () => {
      sandbox.close();
      await proxyServer.close();
      await sandboxServer.close();
    },
  };
}

/** Polls `condition` every 20 ms for at most `ms` of real time. */
/** A shop that prices each method on its own, as the demo does: UPI in rupees, SBP in roubles. */
export function pricedByMethod(): PayinProxyOptions['resolveOrder'] {
  const prices: Record<string, { amount: string; currency: string }> = {
    upi: { amount: '499.00', currency: 'INR' },
    sbp: { amount: '450.00', currency: 'RUB' },
  };
  return (_orderId, method) => prices[method] ?? null;
}

export async function eventually(condition: () => boolean | Promise<boolean>, ms = 5_000, what = 'the condition'): Promise<void> {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (await condition()) return;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error(`timed out waiting for ${what}`);
}
