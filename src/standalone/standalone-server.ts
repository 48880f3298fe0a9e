/**
 * The proxy as a ready server, for shops whose backend is not JavaScript: `npx payin-checkout proxy`. It serves
 * the proxy under its base path, `GET /healthz` and `GET /metrics`, keeps the ledger in the store named by
 * PAYIN_STORE_URL (SQLite by default), prices orders through the shop's backend or signed order tokens and sends
 * every announcement as a signed webhook. Built only from the proxy's public API. `close()` is the graceful
 * shutdown: it stops accepting, lets requests in flight finish (bounded), then stops the proxy and the store.
 */
import { createPayinProxy, type PayinProxy } from '../proxy/index.js';
import type { ProxyLogger } from '../proxy/logger.js';
import { serve, type RunningServer } from '../server/serve.js';
import { storeFromUrl } from '../server/store-url.js';
import type { StandaloneConfig } from './config.js';
import { Metrics } from './metrics.js';
import { resolveOrderVia, webhookDelivery } from './shop-backend.js';
import { createSignedPoster } from './signed-post.js';

export interface StandaloneServer {
  url: string;
  proxy: PayinProxy;
  metrics: Metrics;
  close(): Promise<void>;
}

export interface StandaloneOptions {
  log?: (line: string) => void;
  /** For tests: the fetch used toward the service and the shop. */
  fetch?: typeof fetch;
  reconcileEveryMs?: number;
}

export async function startStandalone(config: StandaloneConfig, options: StandaloneOptions = {}): Promise<StandaloneServer> {
  const log = options.log ?? ((line: string) => console.log(`payin-proxy: ${line}`));
  const logger: ProxyLogger = {
    info: (message, fields) => log(`${message}${fields ? ` ${JSON.stringify(fields)}` : ''}`),
    warn: (message, fields) => log(`warning: ${message}${fields ? ` ${JSON.stringify(fields)}` : ''}`),
    error: (message, fields) => log(`error: ${message}${fields ? ` ${JSON.stringify(fields)}` : ''}`),
  };
  const metrics = new Metrics();
  const store = await storeFromUrl(config.storeUrl);
  const baseFetch = options.fetch ?? globalThis.fetch;
  const timedFetch: typeof fetch = async (input, init) => {
    const started = performance.now();
    try {
      return await baseFetch(input, init);
    } finally {
      metrics.upstreamLatency((performance.now() - started) / 1000);
    }
  };
  const poster = createSignedPoster(config.webhookSecret, { timeoutMs: 10_000, now: Date.now, fetch: baseFetch });
  const proxy = createPayinProxy({
    env: config.env,
    basePath: config.basePath,
    allowedOrigins: config.allowedOrigins,
    store,
    fetch: timedFetch,
    logger,
    ...(options.reconcileEveryMs === undefined ? {} : { reconcileEveryMs: options.reconcileEveryMs }),
    resolveOrder: resolveOrderVia(config.pricing, poster, Date.now, log),
    onPaymentUpdate: webhookDelivery(config.webhookUrl, poster, metrics, log),
  });

  let inFlight = 0;
  let closing = false;
  const server: RunningServer = await serve(
    async (request) => {
      const path = new URL(request.url).pathname;
      if (path === '/healthz') return Response.json({ ok: !closing }, { status: closing ? 503 : 200 });
      if (path === '/metrics') return new Response(metrics.render(), { headers: { 'content-type': 'text/plain; version=0.0.4' } });
      if (!proxy.matches(request)) return Response.json({ error: { code: 'not_found', message: 'not found' } }, { status: 404 });
      inFlight++;
      try {
        const response = await proxy(request);
        return path.endsWith('/events') && response.body ? countedStream(response, metrics) : response;
      } finally {
        inFlight--;
      }
    },
    { port: config.port, host: config.host },
  );
  log(`listening on ${server.url}`);
  log(`  proxy:   ${server.url}${config.basePath} (the element's endpoint)`);
  log(`  health:  ${server.url}/healthz   metrics: ${server.url}/metrics`);
  log(`  store:   ${config.storeUrl.startsWith('redis') ? 'Redis' : config.storeUrl}`);
  log(`  pricing: ${config.pricing.kind === 'url' ? config.pricing.url : 'signed order tokens'}`);
  log(`  webhooks to ${config.webhookUrl}`);

  return {
    url: server.url,
    proxy,
    metrics,
    async close() {
      closing = true;
      await new Promise<void>((resolve) => server.server.close(() => resolve()));
      for (let i = 0; i < 100 && inFlight > 0; i++) await new Promise((resolve) => setTimeout(resolve, 50));
      server.server.closeAllConnections();
      await proxy.close();
      await store.close?.();
    },
  };
}

/** The event stream's answer, counted as open until it ends either way. */
function countedStream(response: Response, metrics: Metrics): Response {
  metrics.streamOpened();
  let done = false;
  const finish = () => {
    if (!done) {
      done = true;
      metrics.streamClosed();
    }
  };
  const body = response.body!.pipeThrough(new TransformStream({ flush: finish }));
  const reader = body.getReader();
  const stream = new ReadableStream({
    async pull(controller) {
      const { done: ended, value } = await reader.read();
      if (ended) {
        finish();
        controller.close();
      } else controller.enqueue(value);
    },
    cancel(reason) {
      finish();
      return reader.cancel(reason);
    },
  });
  return new Response(stream, { status: response.status, headers: response.headers });
}
