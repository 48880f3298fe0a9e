/**
 * The proxy as a ready server, for shops whose backend is not JavaScript: `npx payin-checkout proxy`. It serves
 * the proxy under its base path, `GET /healthz` (ready: the store answers), `GET /livez` (the process runs) and
 * `GET /metrics`, keeps the ledger in the store named by
 * PAYIN_STORE_URL (SQLite by default), prices orders through the shop's backend or signed order tokens and sends
 * every announcement as a signed webhook. Built only from the proxy's public API. `close()` is the graceful
 * shutdown: it stops accepting connections, ends the event streams (browsers reconnect to the next process), lets
 * the requests and webhooks in flight finish (within `shutdownGraceMs`; their connections are not kept alive),
 * then stops the proxy and closes the store. A webhook cut off there is sent again, with the same webhook-id,
 * after the restart.
 */
import { consoleTokenAuth, createPayinProxy, type PayinProxy, type PayinProxyOptions, type ProxyStore } from '../proxy/index.js';
import type { ProxyLogger } from '../proxy/logger.js';
import { serve, type RunningServer } from '../server/serve.js';
import { systemClock, within } from '../shared/clock.js';
import { describeStoreUrl, storeFromUrl, storeWarning } from '../server/store-url.js';
import type { StandaloneConfig } from './config.js';
import { EventStreams } from './event-streams.js';
import { InFlight } from './in-flight.js';
import { Metrics } from './metrics.js';
import { resolveOrderVia, webhookDelivery } from './shop-backend.js';
import { createSignedPoster } from './signed-post.js';
import { newMessagesOnly } from '../shared/new-messages-only.js';
import { shownUrl } from '../shared/shown-url.js';
import { callbackPathWarning, listenProblem, plainHttpWarning, relativeSqliteFile, sqliteFileNote } from './startup-notes.js';
import { clientIdFromHeader } from './client-ip-header.js';
import { RepeatFolder } from '../proxy/infrastructure/folded-repeats.js';
import { notASetting, unknownPayinVariables } from './settings.js';

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
  /** The proxy's limits and timeouts, for a server embedded in a program (the variables do not set them). */
  limits?: PayinProxyOptions['limits'];
  timeouts?: PayinProxyOptions['timeouts'];
  /** How long a shutdown waits for requests and webhooks in flight. Default 10 s. */
  shutdownGraceMs?: number;
  /**
   * Connections one client (an IPv4 address, an IPv6 /64) may hold open, when browsers reach the server directly.
   * Default 100, a tenth of the server's 1,000: one address can no longer hold them all. Behind a web server
   * (PAYIN_CLIENT_IP_HEADER set) every connection is that server's, and this is not applied.
   */
  maxConnectionsPerClient?: number;
  /** How often the store is checked with nobody asking /healthz, so that the log tells an outage and the recovery. Default 5 s; 0 for never. */
  storeCheckEveryMs?: number;
}

export async function startStandalone(config: StandaloneConfig, options: StandaloneOptions = {}): Promise<StandaloneServer> {
  const log = options.log ?? ((line: string) => console.log(`payin-proxy: ${line}`));
  const logger: ProxyLogger = {
    info: (message, fields) => log(`${message}${fields ? ` ${JSON.stringify(fields)}` : ''}`),
    warn: (message, fields) => log(`warning: ${message}${fields ? ` ${JSON.stringify(fields)}` : ''}`),
    error: (message, fields) => log(`error: ${message}${fields ? ` ${JSON.stringify(fields)}` : ''}`),
  };
  const metrics = new Metrics();
  const store = await openStore(config.storeUrl, log);
  await prepareStore(store);
  const baseFetch = options.fetch ?? globalThis.fetch;
  // The proxy fetches the SBP bank list and its logos (NSPK's servers) with the same fetch: only the payment
  // service's answers are timed, or a slow logo host would move the service's latency an operator alerts on.
  const isServiceCall = serviceUrlTest(config.env.PAYIN_BASE_URL ?? '');
  const timedFetch: typeof fetch = async (input, init) => {
    if (!isServiceCall(input)) return baseFetch(input, init);
    const started = performance.now();
    try {
      return await baseFetch(input, init);
    } finally {
      metrics.upstreamLatency((performance.now() - started) / 1000);
    }
  };
  // 10 s for each call to the shop's backend: within the proxy's deadline for a hook (timeouts.hookMs, 30 s by
  // default), so that a webhook that hangs fails by its own timeout, which the log names with the webhook's id. A
  // shorter hookMs given in `timeouts` ends the webhook's request at that deadline instead (signed-post.ts).
  const poster = createSignedPoster(config.webhookSecret, { timeoutMs: 10_000, now: Date.now, fetch: baseFetch });
  const webhooks = new InFlight();
  const streams = new EventStreams(metrics);
  const deliver = webhookDelivery(config.webhookUrl, poster, metrics, log);
  const refusals = new RepeatFolder(systemClock);
  const proxy = createPayinProxy({
    env: config.env,
    basePath: config.basePath,
    ...(config.publicBasePath ? { publicBasePath: config.publicBasePath } : {}),
    allowedOrigins: config.allowedOrigins,
    store,
    fetch: timedFetch,
    logger,
    ...(options.reconcileEveryMs === undefined ? {} : { reconcileEveryMs: options.reconcileEveryMs }),
    ...(options.limits ? { limits: options.limits } : {}),
    ...(options.timeouts ? { timeouts: options.timeouts } : {}),
    resolveOrder: resolveOrderVia(config.pricing, poster, Date.now, log, refusals),
    onPaymentUpdate: (payment, info) => webhooks.track(() => deliver(payment, info)),
    // A long-lived process: the shopper's create and the service's callback answer without waiting for the shop's
    // webhook endpoint, which may take its 10 s (and a WordPress one often takes a few).
    announceInBackground: true,
    ...(config.clientIpHeader ? { clientId: clientIdFromHeader(config.clientIpHeader) } : {}),
    ...(config.consoleToken ? { console: consoleTokenAuth(config.consoleToken) } : {}),
  });
  // Whatever the store (a PostgreSQL or Redis that is down, a SQLite file this user may not write), a store that
  // cannot take payments is said at the top of the log, by the check /healthz shares (which says it once, and
  // again only when it changes). The server starts all the same and carries on by itself once the store is back.
  await proxy.checkStore();
  // The same check now and then: without it the log told an outage only by the shoppers' failed requests, and the
  // recovery not at all, unless a load balancer happened to ask /healthz. One round trip every 5 s at most.
  const storeCheckEveryMs = options.storeCheckEveryMs ?? 5_000;
  const storeWatch = storeCheckEveryMs > 0 ? setInterval(() => void proxy.checkStore(), storeCheckEveryMs) : undefined;
  storeWatch?.unref();

  let closing = false;
  // Ready to take payments: not shutting down, and the store answers (proxy.checkStore coalesces and caches, so a
  // busy load balancer costs the database one round trip a second at most).
  const readiness = async (): Promise<Response> => {
    if (closing) return Response.json({ ok: false, closing: true }, { status: 503, headers: NO_STORE });
    const check = await proxy.checkStore();
    return Response.json(check, { status: check.ok ? 200 : 503, headers: NO_STORE });
  };
  const answer = async (request: Request): Promise<Response> => {
    const path = new URL(request.url).pathname;
    if (path === '/healthz') return readiness();
    if (path === '/livez') return Response.json({ ok: true }, { headers: NO_STORE });
    if (path === '/metrics') {
      return new Response(metrics.render(await proxy.checkStore()), { headers: { 'content-type': 'text/plain; version=0.0.4' } });
    }
    if (!proxy.matches(request)) return Response.json({ error: { code: 'not_found', message: 'not found' } }, { status: 404 });
    const response = await proxy(request);
    if (!path.endsWith('/events')) return response;
    const followed = streams.follow(response);
    if (closing) streams.endAll();
    return followed;
  };
  let server: RunningServer;
  try {
    server = await serve(
      async (request) => {
        const response = await answer(request);
        return closing ? lastOnItsConnection(response) : response;
      },
      {
        port: config.port,
        host: config.host,
        ...(config.clientIpHeader ? {} : { maxConnectionsPerClient: options.maxConnectionsPerClient ?? MAX_CONNECTIONS_PER_CLIENT }),
      },
    );
  } catch (error) {
    // The store is open (a Redis or PostgreSQL connection would keep the program that started this alive).
    clearInterval(storeWatch);
    await proxy.close();
    await store.close?.();
    throw listenProblem(error, config.host, config.port);
  }
  log(`listening on ${server.url}`);
  log(`  proxy:   ${server.url}${config.basePath} (the element's endpoint)`);
  log(`  health:  ${server.url}/healthz (store too)   ${server.url}/livez (process only)   metrics: ${server.url}/metrics`);
  log(`  store:   ${describeStoreUrl(config.storeUrl)}${sqliteFileNote(config.storeUrl)}`);
  const warning = storeWarning(config.storeUrl);
  if (warning) log(`warning: ${warning}`);
  const callbackWarning = callbackPathWarning(config.env.PAYIN_CALLBACK_URL, proxy.basePath);
  if (callbackWarning) log(`warning: ${callbackWarning}`);
  for (const name of unknownPayinVariables(config.env)) log(`warning: ${notASetting(name)}; it is ignored`);
  for (const plain of [
    config.pricing.kind === 'url' ? plainHttpWarning('PAYIN_RESOLVE_URL', config.pricing.url) : undefined,
    plainHttpWarning('PAYIN_WEBHOOK_URL', config.webhookUrl),
  ]) {
    if (plain) log(`warning: ${plain}`);
  }
  log(`  pricing: ${config.pricing.kind === 'url' ? shownUrl(config.pricing.url) : 'signed order tokens'}`);
  log(`  webhooks to ${shownUrl(config.webhookUrl)}`);
  log(
    config.clientIpHeader
      ? `  clients: told apart by ${config.clientIpHeader} (set by your web server)`
      : '  clients: by peer address (behind a web server, set PAYIN_CLIENT_IP_HEADER)',
  );
  log(
    config.consoleToken
      ? `  console: ${server.url}${config.basePath}/console (sign in with PAYIN_CONSOLE_TOKEN)`
      : '  console: off (set PAYIN_CONSOLE_TOKEN to turn it on)',
  );

  return {
    url: server.url,
    proxy,
    metrics,
    async close() {
      if (closing) return;
      closing = true;
      clearInterval(storeWatch);
      const grace = options.shutdownGraceMs ?? 10_000;
      const stopped = new Promise<void>((resolve) => server.server.close(() => resolve()));
      server.server.closeIdleConnections();
      const ended = streams.endAll();
      if (ended) log(`shutdown: ended ${ended} event stream(s); browsers reconnect`);
      if (!(await within(systemClock, stopped, grace))) {
        log(`shutdown: requests still open after ${grace} ms; cutting them off`);
        server.server.closeAllConnections();
        await stopped;
      }
      await proxy.close();
      refusals.flush();
      if (!(await webhooks.settled(grace))) log(`shutdown: ${webhooks.count} webhook(s) unanswered; they are sent again after a restart`);
      // Lets the ledger record the deliveries that just succeeded before the store closes.
      await new Promise((resolve) => setImmediate(resolve));
      await store.close?.();
      log('stopped');
    },
  };
}

/** The store, or an error that names the setting and where it points (never a password): the driver's own words alone, such as "unable to open database file", leave the operator guessing. */
async function openStore(url: string, log: (line: string) => void): Promise<ProxyStore> {
  try {
    // Into the server's log, prefixed as its other lines, rather than onto the console under the store's own name.
    const onConnectionError = newMessagesOnly((error) => log(`warning: the redis connection: ${error.message}`));
    return await storeFromUrl(url, { onConnectionError });
  } catch (error) {
    const file = relativeSqliteFile(url);
    const where = `${describeStoreUrl(url)}${file ? `, the file ${file}` : ''}`;
    throw new Error(`PAYIN_STORE_URL (${where}): the store could not be opened: ${(error as Error).message}`, { cause: error });
  }
}

/**
 * A database store that has a `ready()` (PostgreSQL creates or migrates its schema there) is readied once at start,
 * without the store check's time limit, since a migration may take longer. A database that is down is no reason to
 * stay down: its failure is left to the store check that follows, which logs it; the server answers 503 (and
 * /healthz 503) while the store fails, and carries on by itself once the database is back.
 */
async function prepareStore(store: ProxyStore): Promise<void> {
  const ready = (store as { ready?: () => Promise<void> }).ready;
  await ready?.call(store).catch(() => {});
}

/** Whether a fetch goes to the payment service: its URL lies under PAYIN_BASE_URL (as the proxy reads it, no trailing slash). */
function serviceUrlTest(baseUrl: string): (input: Parameters<typeof fetch>[0]) => boolean {
  const base = `${baseUrl.trim().replace(/\/+$/, '')}/`;
  return (input) => {
    const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
    return url.startsWith(base);
  };
}

const NO_STORE = { 'cache-control': 'no-store' };

/**
 * A browser keeps up to 6 connections to a server and an event stream per open checkout (10 at most per client),
 * and shoppers behind one NAT share an address: 100 is room for them, and a tenth of the server's 1,000.
 */
const MAX_CONNECTIONS_PER_CLIENT = 100;

/** An answer given while shutting down closes its connection, so that the server can finish closing. */
function lastOnItsConnection(response: Response): Response {
  const headers = new Headers(response.headers);
  headers.set('connection', 'close');
  return new Response(response.body, { status: response.status, statusText: response.statusText, headers });
}
