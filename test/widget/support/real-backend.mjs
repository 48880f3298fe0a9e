// The real backend for the main-flow browser tests: a sandbox of the payment service on 127.0.0.1 and the real
// proxy mounted under /payin on the test runner's dev server (same origin as the tests, as on a shop). Both are
// TypeScript sources, bundled once with esbuild into node_modules/.cache and imported from there. A test-only
// route lets a test play the payer: POST /__sandbox/act {orderId, action, amount?, paymentId?} runs the sandbox's
// action on the newest payment of the order (or on the payment named); GET /__sandbox/payments?orderId= lists the service's payments of the order
// (to count creates); POST /__shop/reprice {orderId, amount} re-prices an order, as a shop whose cart changed
// (`amount: null`: the shop prices it no more, as for an order token or a session that expired).
// GET /__backend answers whether the real backend could be started.
import { mkdirSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { build } from 'esbuild';

const root = fileURLToPath(new URL('../../../', import.meta.url));
const outfile = `${root}node_modules/.cache/payin-checkout-wtr/backend.mjs`;

/** What each test order costs, by method: the shop's resolveOrder. */
export const PRICES = { upi: { amount: '499.00', currency: 'INR' }, sbp: { amount: '1500.00', currency: 'RUB' } };

/** Orders a test re-priced: orderId -> amount, or null for one the shop no longer prices. */
const repriced = new Map();

let started;
let running;

async function load() {
  mkdirSync(fileURLToPath(new URL('.', pathToFileURL(outfile))), { recursive: true });
  await build({
    stdin: {
      contents: [
        "export { createPayinProxy } from './src/proxy/index.ts';",
        "export { createSandbox } from './src/sandbox/index.ts';",
        "export { serve, toNodeListener } from './src/server/index.ts';",
      ].join('\n'),
      resolveDir: root,
      loader: 'ts',
    },
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    packages: 'external',
    outfile,
    logLevel: 'silent',
  });
  return import(`${pathToFileURL(outfile).href}?v=${Date.now()}`);
}

async function start(origin) {
  const { createPayinProxy, createSandbox, serve, toNodeListener } = await load();
  const sandbox = createSandbox({ requisitesDelayMs: 400, ttlSeconds: 15 * 60 });
  const sandboxServer = await serve(sandbox, { port: 0, host: '127.0.0.1' });
  const proxy = createPayinProxy({
    provider: { baseUrl: sandboxServer.url, merchantId: 'demo-merchant', token: 'demo-token', secret: 'demo-secret' },
    basePath: '/payin',
    callbackUrl: `${origin}/payin/callback`,
    resolveOrder: async (orderId, method) => {
      const price = PRICES[method] ?? PRICES.upi;
      if (!repriced.has(orderId)) return price;
      const amount = repriced.get(orderId);
      return amount === null ? null : { ...price, amount };
    },
    limits: { createsPerMinute: 10_000, statusPerMinute: 100_000, streamsPerClient: 1_000 },
  });
  return { sandbox, sandboxServer, proxyListener: toNodeListener(proxy) };
}

async function readJson(req) {
  const chunks = [];
  for await (const chunk of req) chunks.push(chunk);
  return JSON.parse(Buffer.concat(chunks).toString('utf8'));
}

async function control(ctx, sandbox) {
  if (ctx.path === '/__shop/reprice' && ctx.method === 'POST') {
    const { orderId, amount } = await readJson(ctx.req);
    repriced.set(orderId, amount);
    ctx.body = { orderId, amount };
    return;
  }
  const ofOrder = (orderId) => sandbox.payments().filter((p) => p.orderId === orderId);
  if (ctx.path === '/__sandbox/payments') {
    ctx.body = ofOrder(ctx.query.orderId).map(({ id, orderId, state, amount, method }) => ({ id, orderId, state, amount, method }));
    return;
  }
  if (ctx.path === '/__sandbox/act' && ctx.method === 'POST') {
    const { orderId, action, amount, paymentId } = await readJson(ctx.req);
    const payments = ofOrder(orderId); // newest first
    const payment = paymentId === undefined ? payments[0] : payments.find((p) => p.id === paymentId);
    if (!payment) {
      ctx.status = 404;
      ctx.body = { error: `no sandbox payment for order ${orderId}` };
      return;
    }
    try {
      const after = sandbox.act(payment.id, action, amount === undefined ? undefined : { amount });
      ctx.body = { id: after.id, state: after.state };
    } catch (error) {
      ctx.status = error.status ?? 500;
      ctx.body = { error: error.message };
    }
    return;
  }
  ctx.status = 404;
}

export const realBackend = {
  async middleware(ctx, next) {
    const mine =
      ctx.path === '/__backend' || ctx.path.startsWith('/payin/') || ctx.path.startsWith('/__sandbox/') || ctx.path.startsWith('/__shop/');
    if (!mine) return next();
    started ??= start(`http://${ctx.host}`).then(
      (value) => (running = value),
      (error) => ({ error }),
    );
    const backend = await started;
    if (ctx.path === '/__backend') {
      ctx.body = backend.error ? { available: false, reason: String(backend.error.message ?? backend.error) } : { available: true };
      return;
    }
    if (backend.error) {
      ctx.status = 503;
      ctx.body = { error: { code: 'internal', message: `real backend unavailable: ${backend.error.message}` } };
      return;
    }
    if (ctx.path.startsWith('/__sandbox/') || ctx.path.startsWith('/__shop/')) return control(ctx, backend.sandbox);
    ctx.respond = false;
    await backend.proxyListener(ctx.req, ctx.res);
  },
  plugin: {
    name: 'real-backend',
    async serverStop() {
      if (!running) return;
      await running.sandboxServer.close();
      running.sandbox.close();
    },
  },
};
