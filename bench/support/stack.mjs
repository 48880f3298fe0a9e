// The real proxy and sandbox from dist/, wired the way a figure needs them: in memory (each one's fetch calls
// the other's handler, no sockets) or on loopback ports (the proxy asks the sandbox over HTTP and the sandbox
// posts its callbacks to the proxy, as in the demo). The proxy's calls to the service are counted. Per-client
// limits are raised, because all the bench's load comes from one address. Nothing here asserts.
import { existsSync } from 'node:fs';

const ROOT = new URL('../../', import.meta.url);
export const at = (path) => new URL(path, ROOT);

export function requireBuild() {
  for (const file of ['dist/payin-checkout.iife.js', 'dist/proxy/index.js', 'dist/sandbox/index.js', 'dist/server/index.js']) {
    if (!existsSync(at(file))) {
      console.error(`${file} is missing: run \`npm run build\` first.`);
      process.exit(1);
    }
  }
}

requireBuild();
const { createPayinProxy, createMemoryStore, silentLogger } = await import(at('dist/proxy/index.js').href);
const { createSandbox, DEMO_MERCHANT } = await import(at('dist/sandbox/index.js').href);
const { serve, toNodeListener } = await import(at('dist/server/index.js').href);
const { signBody, verifySignature } = await import(at('dist/shared/index.js').href);
export { createMemoryStore, createPayinProxy, createSandbox, DEMO_MERCHANT, serve, signBody, verifySignature };

export const BASE_PATH = '/payin';
export const CLIENT = { clientAddress: '127.0.0.1' };
const UNLIMITED = { createsPerMinute: 1e9, statusPerMinute: 1e9, streamsPerClient: 1e9 };
const NOWHERE = 'http://127.0.0.1:9';
/** A callback address that no proxy answers: in memory, the sandbox's callbacks to it are dropped. */
export const ELSEWHERE = 'http://127.0.0.2:9';

/**
 * @param {{
 *   sockets?: boolean, store?: object, requisitesDelayMs?: number, timeouts?: object, reconcileEveryMs?: number,
 *   maxConnections?: number, sandbox?: object, sandboxUrl?: string, wrap?: (handler: Function) => Function,
 * }} options `sandboxUrl`: use a sandbox served elsewhere (another process) instead of starting one; `wrap`:
 *   wraps the proxy's handler where it is served (to time requests). Unwrapped, the proxy is served the way a
 *   shop on node:http serves it, `toNodeListener(proxy)`.
 */
export async function startStack(options = {}) {
  const { sockets = false, requisitesDelayMs = 0, maxConnections = 1_000 } = options;
  const calls = { status: 0, statusIds: 0, create: 0 };
  const closers = [];
  let proxy;
  let proxyUrl = NOWHERE;
  let sandbox;
  let sandboxUrl = options.sandboxUrl ?? NOWHERE;
  let servedProxy;
  if (sockets) {
    // Listening before the proxy exists, because its callback address names the port; it is mounted below.
    servedProxy = await serve(() => new Response('starting', { status: 503 }), { maxConnections });
    proxyUrl = servedProxy.url;
    closers.push(() => servedProxy.close());
  }
  if (!options.sandboxUrl) {
    sandbox = createSandbox({
      requisitesDelayMs,
      maxPayments: 1_000_000,
      // In memory, callbacks for the proxy reach its handler; callbacks for any other address are taken and dropped.
      ...(sockets
        ? {}
        : {
            fetch: async (input, init) => {
              const request = new Request(input, init);
              return request.url.startsWith(NOWHERE) ? proxy(request, CLIENT) : new Response('taken');
            },
          }),
      ...options.sandbox,
    });
    closers.push(async () => sandbox.close());
    if (sockets) {
      // Counted where they arrive, so that the proxy keeps its own default way to the service (node-fetch.ts).
      const served = await serve(
        (request) => {
          const path = new URL(request.url).pathname;
          if (path === '/api/v2/status') calls.status += 1;
          else if (path === '/api/v2/payments') calls.create += 1;
          return sandbox(request);
        },
        { maxConnections },
      );
      sandboxUrl = served.url;
      closers.unshift(() => served.close());
    }
  }
  // In memory, the proxy's fetch calls the sandbox's handler and counts; on sockets it is the proxy's default.
  const inMemory = !sockets && !options.sandboxUrl;
  proxy = createPayinProxy({
    provider: { baseUrl: sandboxUrl, merchantId: DEMO_MERCHANT.id, token: DEMO_MERCHANT.token, secret: DEMO_MERCHANT.secret },
    callbackUrl: `${proxyUrl}${BASE_PATH}/callback`,
    basePath: BASE_PATH,
    resolveOrder: () => ({ amount: '499.00', currency: 'INR' }),
    ...(inMemory
      ? {
          fetch: async (input, init) => {
            const path = new URL(typeof input === 'string' ? input : input.url).pathname;
            if (path === '/api/v2/status') {
              calls.status += 1;
              const body = JSON.parse(new TextDecoder().decode(init.body));
              calls.statusIds += body.paymentIds?.length ?? 1;
            } else if (path === '/api/v2/payments') calls.create += 1;
            return sandbox(new Request(input, init));
          },
        }
      : {}),
    logger: silentLogger,
    limits: UNLIMITED,
    reconcileEveryMs: options.reconcileEveryMs ?? 0,
    env: {},
    ...(options.store ? { store: options.store } : {}),
    ...(options.timeouts ? { timeouts: options.timeouts } : {}),
  });
  closers.unshift(() => proxy.close());
  if (servedProxy) {
    servedProxy.server.removeAllListeners('request');
    servedProxy.server.on('request', toNodeListener(options.wrap ? options.wrap((request) => proxy(request)) : proxy));
  }

  return {
    proxy,
    sandbox,
    proxyUrl,
    sandboxUrl,
    calls,
    resetCalls: () => Object.assign(calls, { status: 0, statusIds: 0, create: 0 }),
    /** POST {basePath}{path} to the proxy in this process (no socket), as the browser would send it. */
    post: (path, body) =>
      proxy(
        new Request(`${NOWHERE}${BASE_PATH}${path}`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify(body),
        }),
        CLIENT,
      ),
    async close() {
      for (const close of closers) await close().catch(() => {});
    },
  };
}

let orderSeq = 0;
/** Creates a payment for a fresh order through the proxy; answers `{payment, token}`. */
export async function createPayment(stack, method = 'upi') {
  const answer = await stack.post('/payments', { orderId: `B-${process.pid}-${++orderSeq}`, method });
  if (answer.status !== 201) throw new Error(`create answered ${answer.status}: ${await answer.text()}`);
  return answer.json();
}

/** Creates `n` payments, `concurrency` at a time; answers their `{payment, token}`s. */
export async function createPayments(stack, n, concurrency = 16) {
  const made = [];
  let next = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < n) {
        next += 1;
        made.push(await createPayment(stack));
      }
    }),
  );
  return made;
}

/** Asks the proxy for the payment's status until `done(payment)`, at most `timeoutMs`. */
export async function waitForStatus(stack, { payment, token }, done, timeoutMs = 10_000) {
  const deadline = Date.now() + timeoutMs;
  for (let round = 0; round < 10_000; round++) {
    const answer = await stack.post('/status', { paymentId: payment.id, token });
    const body = await answer.json();
    if (answer.status === 200 && done(body.payment)) return body.payment;
    if (Date.now() > deadline) break;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error(`payment ${payment.id} did not reach the awaited state within ${timeoutMs} ms`);
}

/** Polls `probe` until it is truthy, at most `timeoutMs`. */
export async function until(what, probe, timeoutMs = 30_000, everyMs = 20) {
  const deadline = Date.now() + timeoutMs;
  for (let round = 0; round < 100_000; round++) {
    const value = await probe();
    if (value) return value;
    if (Date.now() > deadline) break;
    await new Promise((resolve) => setTimeout(resolve, everyMs));
  }
  throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
}

/** A browser's POST /status for a created payment, through the stack's proxy, as a load target. */
export function statusTarget(stack, { payment, token }) {
  return {
    url: `${stack.proxyUrl}${BASE_PATH}/status`,
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ paymentId: payment.id, token }),
  };
}

/** The exact request the proxy sends for one payment's status: body, Bearer token and Signature. */
export async function signedStatusRequest(paymentId) {
  const body = JSON.stringify({ merchantId: DEMO_MERCHANT.id, paymentId });
  return {
    body,
    headers: {
      'content-type': 'application/json',
      authorization: `Bearer ${DEMO_MERCHANT.token}`,
      signature: await signBody(DEMO_MERCHANT.secret, body),
    },
  };
}

/**
 * Writes `n` payments into `store` as the ledger writes them, without asking the service: copies of `template`
 * (a record the proxy made for a real payment, with its order) under ids of the same shape, each with its own
 * order. `ids` gives the ids to use (payments the sandbox knows); otherwise random 13-digit hex ones.
 */
export async function copyPayments(store, template, n, ids) {
  const hex = () => Array.from({ length: 13 }, () => Math.floor(Math.random() * 16).toString(16)).join('');
  for (let i = 0; i < n; i++) {
    const id = ids?.[i] ?? hex();
    const orderId = `C-${process.pid}-${i}`;
    const record = structuredClone(template);
    record.view.id = id;
    record.view.orderId = orderId;
    if (!(await store.putPayment(record, 0))) throw new Error(`the store already had payment ${id}`);
    await store.putOrder({ orderId, payments: [{ id, method: record.view.method }] });
  }
}

/** How many payments a store follows (the reconcile sweep's list), read page by page as the sweep reads it. */
export async function followedCount(store) {
  let n = 0;
  let after;
  for (let page = 0; page < 10_000; page++) {
    const ids = await store.followedPayments(1_000, after);
    if (ids.length === 0) break;
    n += ids.length;
    after = ids[ids.length - 1];
  }
  return n;
}
