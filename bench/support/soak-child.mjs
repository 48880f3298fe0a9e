// The proxy process of the memory soak, run with --expose-gc: one proxy served on loopback, with the store it is
// told (memory or SQLite, named as PAYIN_STORE_URL names them), asking a sandbox served by its parent and taking
// that sandbox's callbacks. Unlike bench/support/stack.mjs it has a shop hook (onPaymentUpdate, which only
// counts), so the outbox runs as it does in a live proxy. Its parent drives everything from outside: the browsers'
// requests and the sandbox's callbacks arrive over loopback, so this heap holds the proxy and nothing else. The
// sweep is started from here, as a cron job would call `proxy.reconcile()`.
import { rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import v8 from 'node:v8';
import { serveRequests } from './child.mjs';
import { at, BASE_PATH, copyPayments, createPayinProxy, DEMO_MERCHANT, followedCount, serve } from './stack.mjs';

const { storeFromUrl, toNodeListener } = await import(at('dist/server/index.js').href);
const { silentLogger } = await import(at('dist/proxy/index.js').href);

// All the soak's load comes from one address: per-client limits would refuse it.
const UNLIMITED = { createsPerMinute: 1e9, statusPerMinute: 1e9, streamsPerClient: 1e9 };

let proxy;
let served;
let store;
let file;
let announced = 0;
let requests = 0;

/** Heap after full collections, with turns of the event loop between them so that finalizers and closes run too. */
async function heapAfterGc() {
  for (let i = 0; i < 3; i++) {
    globalThis.gc();
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  globalThis.gc();
  return process.memoryUsage();
}

serveRequests({
  async start({ kind, sandboxUrl }) {
    if (typeof globalThis.gc !== 'function') throw new Error('run with --expose-gc');
    file = kind === 'sqlite' ? join(tmpdir(), `payin-soak-${process.pid}.db`) : undefined;
    store = await storeFromUrl(file ? `sqlite:${file}` : 'memory:');
    // Listening first, since the callback address names the port; then mounted as a shop on node:http mounts it.
    served = await serve(() => new Response('starting', { status: 503 }), { maxConnections: 5_000 });
    proxy = createPayinProxy({
      provider: { baseUrl: sandboxUrl, merchantId: DEMO_MERCHANT.id, token: DEMO_MERCHANT.token, secret: DEMO_MERCHANT.secret },
      callbackUrl: `${served.url}${BASE_PATH}/callback`,
      basePath: BASE_PATH,
      resolveOrder: () => ({ amount: '499.00', currency: 'INR' }),
      onPaymentUpdate: () => {
        announced += 1;
      },
      logger: silentLogger,
      limits: UNLIMITED,
      reconcileEveryMs: 0,
      env: {},
      store,
    });
    const listener = toNodeListener(proxy);
    served.server.removeAllListeners('request');
    served.server.on('request', (req, res) => {
      requests += 1;
      listener(req, res);
    });
    return { proxyUrl: served.url, callbackUrl: `${served.url}${BASE_PATH}/callback` };
  },
  /** Writes a copy of the template's record (a payment made through the proxy) under each id, with its own order. */
  async copy({ templateId, ids }) {
    const template = await store.getPayment(templateId);
    if (!template) throw new Error(`the store has no payment ${templateId}`);
    await copyPayments(store, template, ids.length, ids);
    const orderIds = [];
    for (const id of ids) orderIds.push((await store.getPayment(id))?.view.orderId);
    return { orderIds };
  },
  async sweep() {
    const started = performance.now();
    const result = await proxy.reconcile();
    return { ...result, ms: performance.now() - started };
  },
  /** How many announcements the hook has had: the parent waits for the outbox to drain after the first sweep. */
  async announced() {
    return announced;
  },
  /**
   * The heap after full collections. Idle keep-alive connections are closed first (the parent closes those of
   * the proxy to the sandbox), so that the sample does not depend on how many sockets, each with its buffers,
   * happen to be open; a connection that is still busy is not idle and stays.
   */
  async sample() {
    served.server.closeIdleConnections();
    const followed = await followedCount(store);
    const { heapUsed, rss, external } = await heapAfterGc();
    const spaces = Object.fromEntries(v8.getHeapSpaceStatistics().map((s) => [s.space_name, s.space_used_size]));
    return { heapUsed, rss, external, spaces, followed, announced, requests, subscriptions: store.subscriptionCount };
  },
  /** A heap snapshot after full collections, for DevTools' comparison view. */
  async snapshot({ path }) {
    await heapAfterGc();
    return v8.writeHeapSnapshot(path);
  },
  async stop() {
    await proxy?.close();
    await served?.close();
    await store?.close?.();
    if (file) for (const suffix of ['', '-wal', '-shm']) rmSync(`${file}${suffix}`, { force: true });
    return true;
  },
});
