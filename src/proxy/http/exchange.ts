/**
 * The request and answer the proxy's routes work on, and the proxy's helpers over them. The shapes and the
 * `Symbol.for` keys are the contract the node adapter serves too (shared/exchange.ts), so the proxy, which runs
 * everywhere, imports nothing of the node adapter and the adapter nothing of the proxy. A Fetch `Request` is a
 * ProxyRequest and an Answer becomes a `Response` in one call, so the proxy serves every Fetch runtime unchanged.
 */

import { AS_FETCH_REQUEST, type Answer, type PlainRequest } from '../../shared/exchange.js';

export { PLAIN_HANDLER, type Answer, type PlainHandler } from '../../shared/exchange.js';

/** What the proxy reads of a request (the shared PlainRequest). A Fetch Request has all of it. */
export type ProxyRequest = PlainRequest;

/** The request as a Fetch Request (for the shop's `resolveOrder` and `clientId`): itself when it is one. */
export function asFetchRequest(request: ProxyRequest): Request {
  if (request instanceof Request) return request;
  const build = (request as ProxyRequest & { [AS_FETCH_REQUEST]?: () => Request })[AS_FETCH_REQUEST];
  if (!build) throw new TypeError('this request cannot be turned into a Fetch Request');
  return build.call(request);
}

/** The request's path, parsed from its URL only when the request does not know it already. */
export function pathnameOf(request: ProxyRequest): string {
  return request.pathname ?? new URL(request.url).pathname;
}

/**
 * What follows `base` in a path under it, the route it names ('' for the base itself); one slash after a route is
 * the same route: Next.js with `trailingSlash: true` redirects every path to it.
 */
export function routeUnder(pathname: string, base: string): string {
  const rest = pathname.slice(base.length);
  return rest.length > 1 && rest.endsWith('/') ? rest.slice(0, -1) : rest;
}

export function toResponse(answer: Answer): Response {
  return new Response(answer.body, { status: answer.status, headers: answer.headers });
}
