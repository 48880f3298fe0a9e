/**
 * createPayinProxy(options): the shop's side of the checkout as one Fetch handler. It routes the paths under
 * `basePath`, answers CORS preflights and wrong methods, and is the one place where a thrown error becomes an
 * answer. The routes work on plain requests and answers (http/exchange.ts): the Fetch handler turns the
 * answer into a Response, the node adapter writes it to the socket as it is. Options are resolved (and checked) here, at start, so that a misconfigured proxy fails on boot rather
 * than on the first shopper.
 */
import { pathnameOf, PLAIN_HANDLER, routeUnder, toResponse, type Answer, type PlainHandler, type ProxyRequest } from './http/exchange.js';
import type { ProxyContext } from './context.js';
import { createContext } from './context.js';
import { rememberClientAddress, type ProxyRequestInfo } from './http/client-address.js';
import { corsHeaders, preflightAnswer, withHeaders } from './http/cors.js';
import { errorAnswer, ProxyError } from './http/errors.js';
import { subjectOf } from './http/request-subject.js';
import { after, type MaybePromise } from './maybe-async.js';
import { handleCallback } from './use-cases/callback-route.js';
import { handleCreate } from './use-cases/create-route.js';
import { handleEvents } from './use-cases/events-route.js';
import type { PayinProxyOptions } from './options.js';
import { resolveOptions } from './resolved-options.js';
import { reconcile, startReconcileLoop, type ReconcileResult } from './use-cases/reconcile.js';
import { handleStatus } from './use-cases/status-route.js';
import { enforceRate } from './http/rate-limit.js';
import { createConsoleHandler } from '../console-api/console-handler.js';
import { StoreHealth, type StoreCheck } from './infrastructure/store-health.js';
import { runtimeProblem } from './infrastructure/runtime-checks.js';

export interface PayinProxy {
  /**
   * Answers one request. `info.clientAddress` is the peer's address where the runtime gives it (Bun
   * `server.requestIP(request)`, Deno `info.remoteAddr`, Hono `getConnInfo(c)`, a worker's trusted header), for
   * the per-client limits; the node adapter passes it by itself.
   */
  (request: Request, info?: ProxyRequestInfo): Promise<Response>;
  /** The mount path, without a trailing slash ('/payin'). */
  readonly basePath: string;
  /** True when the request's path is under basePath: route it to the proxy, everything else to the shop. */
  matches(request: Request): boolean;
  /**
   * One reconcile sweep: asks the service about every payment still followed, records what changed and delivers
   * due announcements. For cron jobs and serverless; a long-lived server runs it every `reconcileEveryMs` itself.
   */
  reconcile(): Promise<ReconcileResult>;
  /**
   * Whether the store can be used now, for the shop's own health route: `{ok: true, store: 'ok'}`, `{ok: false,
   * store: 'unreachable'}` (answer 503 then, so that the load balancer sends shoppers elsewhere) or `{ok: true,
   * store: 'unchecked'}` for a store without `ping()`. One round trip of at most 2 s, shared by concurrent callers
   * and reused for a second, so a busy health route never hammers the database.
   */
  checkStore(): Promise<StoreCheck>;
  /**
   * Stops the proxy's own timers (the reconcile loop, announcement retries), ends the open event streams (the
   * browser reconnects to the next process), and resolves once a sweep under way has stopped (after the batch it
   * is recording) and the announcements that requests left running (`announceInBackground`) have settled. It does
   * not close the store.
   */
  close(): Promise<void>;
  /** The same handler over plain requests and answers, for the node adapter. */
  readonly [PLAIN_HANDLER]: PlainHandler;
}

interface Route {
  methods: readonly string[];
  handle: (request: ProxyRequest, ctx: ProxyContext) => MaybePromise<Answer>;
  /** Browser routes get CORS; the service's callback does not. */
  browser: boolean;
}

const ROUTES: Record<string, Route> = {
  '/payments': { methods: ['POST'], handle: handleCreate, browser: true },
  '/status': { methods: ['POST'], handle: handleStatus, browser: true },
  '/events': { methods: ['GET'], handle: handleEvents, browser: true },
  '/callback': { methods: ['POST'], handle: handleCallback, browser: false },
  '/sbp-banks': { methods: ['GET', 'HEAD'], handle: (request, ctx) => ctx.sbpBanks.answer(pathnameOf(request)), browser: true },
};

/** `/sbp-banks/logos/<schema>.png`: the one route with a parameter in its path. */
const LOGO_ROUTE: Route = {
  methods: ['GET', 'HEAD'],
  handle: (request, ctx) => {
    const schema = /\/sbp-banks\/logos\/([^/]+)\.png$/.exec(pathnameOf(request))?.[1] ?? '';
    return after(enforceRate(ctx.options, request, 'logo', `logo:${schema}`), () => ctx.sbpBanks.logo(schema));
  },
  browser: true,
};

export function createPayinProxy(options: PayinProxyOptions): PayinProxy {
  const ctx = createContext(resolveOptions(options));
  const { basePath, allowedOrigins, logger } = ctx.options;
  const problem = runtimeProblem();
  if (problem) logger.warn(problem);

  const baseSlash = `${basePath}/`;
  const underBase = (pathname: string) => pathname === basePath || pathname.startsWith(baseSlash);
  // The operator's console, only when the shop turned it on: its own router under <basePath>/console.
  const consoleHandler = ctx.options.console ? createConsoleHandler(ctx, ctx.options.console) : undefined;
  const consoleBase = `${basePath}/console`;

  // Static, never the path that came: Express's app.use(basePath, ...) strips the base, the usual reason for it.
  const notUnderBase = `not a ${basePath} route: the handler must get the whole path (a framework that mounts it under a path, as Express's app.use('${basePath}', ...) does, removes it; see docs/runtimes.md)`;
  // Not async: a route that answers at once (a final payment's status) is answered without a promise.
  const answer = (request: ProxyRequest, clientAddress: string | undefined): MaybePromise<Answer> => {
    rememberClientAddress(request, clientAddress);
    const pathname = pathnameOf(request);
    if (consoleHandler && (pathname === consoleBase || pathname.startsWith(`${consoleBase}/`))) return consoleHandler(request);
    const key = routeUnder(pathname, basePath);
    const route = !underBase(pathname)
      ? undefined
      : Object.hasOwn(ROUTES, key)
        ? ROUTES[key]
        : key.startsWith('/sbp-banks/logos/')
          ? LOGO_ROUTE
          : undefined;
    const cors = route?.browser ? corsHeaders(request, allowedOrigins) : {};
    let answer: MaybePromise<Answer>;
    try {
      if (!route) {
        throw new ProxyError('not_found', underBase(pathname) ? 'no such route' : notUnderBase);
      }
      if (request.method === 'OPTIONS' && route.browser) return preflightAnswer(request, allowedOrigins, route.methods);
      if (!route.methods.includes(request.method)) {
        throw new ProxyError('method_not_allowed', `use ${route.methods.join(' or ')}`, { allow: route.methods });
      }
      answer = route.handle(request, ctx);
    } catch (error) {
      answer = errorAnswer(error, logger, subjectOf(request));
    }
    if (!(answer instanceof Promise)) return withHeaders(answer, cors);
    return answer.then(
      (done) => withHeaders(done, cors),
      (error) => withHeaders(errorAnswer(error, logger, subjectOf(request)), cors),
    );
  };
  const handler = async function payinProxy(request: Request, info?: ProxyRequestInfo): Promise<Response> {
    return toResponse(await answer(request, info?.clientAddress));
  };

  const storeHealth = new StoreHealth(ctx.options.store, { clock: ctx.options.clock, logger });
  // The sweeps under way in this process, which close() waits for: a server that closes its store next must not
  // pull it from under a sweep, which would leave the sweep lease held in a shared store until it lapsed.
  let closing = false;
  const sweeping = new Set<Promise<unknown>>();
  const sweep = () => {
    const run = reconcile(ctx.options, ctx.ledger, ctx.outbox, ctx.upstream, () => closing);
    const done = () => void sweeping.delete(run);
    sweeping.add(run);
    run.then(done, done);
    return run;
  };
  // Only where a process lives on between requests: on a worker each request may run in a fresh isolate, and
  // timers there do not outlive the request.
  let stopLoop = () => {};
  let loopStarted = false;
  const startLoop = () => {
    if (loopStarted || ctx.options.reconcileEveryMs === 0 || !isLongLivedRuntime()) return;
    loopStarted = true;
    stopLoop = startReconcileLoop(ctx.options, sweep, ctx.options.reconcileEveryMs);
  };
  startLoop();

  return Object.assign(handler, {
    [PLAIN_HANDLER]: answer,
    basePath,
    matches: (request: Request) => underBase(new URL(request.url).pathname),
    reconcile: sweep,
    checkStore: () => storeHealth.check(),
    close: async () => {
      closing = true;
      stopLoop();
      ctx.outbox.close();
      ctx.streams.endAll();
      await Promise.allSettled([...sweeping, ctx.outbox.settled(), ctx.rechecks.close()]);
      // The counts of folded repeats not written yet: the last minute of a flood or an outage is said too.
      ctx.options.logger.flush();
    },
  });
}

/** Node, Bun and Deno keep one process between requests; workers and edge runtimes do not. */
function isLongLivedRuntime(): boolean {
  const g = globalThis as { process?: { versions?: { node?: string } }; Deno?: unknown; Bun?: unknown; WebSocketPair?: unknown };
  if (g.WebSocketPair !== undefined && g.process?.versions?.node === undefined) return false; // workerd
  return g.process?.versions?.node !== undefined || g.Deno !== undefined || g.Bun !== undefined;
}
