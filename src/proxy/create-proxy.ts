/**
 * createPayinProxy(options): the shop's side of the checkout as one Fetch handler. It routes the four paths under
 * `basePath`, answers CORS preflights and wrong methods, and is the one place where a thrown error becomes a
 * Response. Options are resolved (and checked) here, at start, so that a misconfigured proxy fails on boot rather
 * than on the first shopper.
 */
import type { ProxyContext } from './context.js';
import { createContext } from './context.js';
import { corsHeaders, preflightResponse, withHeaders } from './cors.js';
import { errorResponse, ProxyError } from './errors.js';
import { handleCallback } from './callback-route.js';
import { handleCreate } from './create-route.js';
import { handleEvents } from './events-route.js';
import { resolveOptions, type PayinProxyOptions } from './options.js';
import { handleStatus } from './status-route.js';

export interface PayinProxy {
  (request: Request): Promise<Response>;
  /** The mount path, without a trailing slash ('/payin'). */
  readonly basePath: string;
  /** True when the request's path is under basePath: route it to the proxy, everything else to the shop. */
  matches(request: Request): boolean;
}

interface Route {
  methods: readonly string[];
  handle: (request: Request, ctx: ProxyContext) => Promise<Response>;
  /** Browser routes get CORS; the service's callback does not. */
  browser: boolean;
}

const ROUTES: Record<string, Route> = {
  '/payments': { methods: ['POST'], handle: handleCreate, browser: true },
  '/status': { methods: ['POST'], handle: handleStatus, browser: true },
  '/events': { methods: ['GET'], handle: handleEvents, browser: true },
  '/callback': { methods: ['POST'], handle: handleCallback, browser: false },
};

export function createPayinProxy(options: PayinProxyOptions): PayinProxy {
  const ctx = createContext(resolveOptions(options));
  const { basePath, allowedOrigins, logger } = ctx.options;

  const underBase = (pathname: string) => pathname === basePath || pathname.startsWith(`${basePath}/`);

  const handler = async function payinProxy(request: Request): Promise<Response> {
    const pathname = new URL(request.url).pathname;
    const key = pathname.slice(basePath.length);
    const route = underBase(pathname) && Object.hasOwn(ROUTES, key) ? ROUTES[key] : undefined;
    const cors = route?.browser ? corsHeaders(request, allowedOrigins) : {};
    let response: Response;
    try {
      if (!route) {
        throw new ProxyError('not_found', underBase(pathname) ? 'no such route' : `not a ${basePath} route`);
      }
      if (request.method === 'OPTIONS' && route.browser) return preflightResponse(request, allowedOrigins, route.methods);
      if (!route.methods.includes(request.method)) {
        throw new ProxyError('method_not_allowed', `use ${route.methods.join(' or ')}`, { allow: route.methods });
      }
      response = await route.handle(request, ctx);
    } catch (error) {
      response = errorResponse(error, logger);
    }
    return withHeaders(response, cors);
  };

  return Object.assign(handler, {
    basePath,
    matches: (request: Request) => underBase(new URL(request.url).pathname),
  });
}
