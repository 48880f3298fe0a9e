/**
 * Cross-origin rules for the browser routes. Same-origin pages need nothing. A page on another origin is served
 * only when its exact origin is listed in `allowedOrigins`; any other origin gets no CORS headers at all, so its
 * browser refuses to hand over the answer, and its preflight gets none either, so its browser never sends the
 * JSON request. Refusing with headers rather than a 403 keeps same-origin pages working behind a reverse proxy,
 * where the URL the proxy sees may differ from the origin the browser sent. Every answer varies by Origin.
 */

import type { Answer, ProxyRequest } from './exchange.js';

const ALLOWED_HEADERS = 'content-type, last-event-id';

/**
 * `text` as the Origin header a browser sends for it ('https://Shop.Example/' -> 'https://shop.example'; a default
 * port dropped), or undefined when it is no origin at all (no scheme, a path, a wildcard): such an entry would
 * never match, and the shop's page would be refused without a word.
 */
export function exactOrigin(text: string): string | undefined {
  let url: URL;
  try {
    url = new URL(text.trim());
  } catch {
    return undefined;
  }
  const bare = url.pathname === '/' && !url.search && !url.hash && !url.username && !url.password;
  return /^https?:$/.test(url.protocol) && bare ? url.origin : undefined;
}

/** Why `text` cannot be an allowed origin, for a start-up error. */
export function originProblem(text: string): string {
  return `"${text}" is not an origin: write scheme://host[:port], such as https://shop.example (no path, no wildcard)`;
}

/** The CORS headers for an answer to `request` (at least `Vary: Origin`). */
export function corsHeaders(request: ProxyRequest, allowed: ReadonlySet<string>): Record<string, string> {
  const origin = request.headers.get('origin');
  if (origin === null || !allowed.has(origin)) return { vary: 'Origin' };
  return {
    vary: 'Origin',
    'access-control-allow-origin': origin,
    'access-control-expose-headers': 'retry-after',
  };
}

/** The answer to an OPTIONS preflight for a route that accepts `methods`. */
export function preflightAnswer(request: ProxyRequest, allowed: ReadonlySet<string>, methods: readonly string[]): Answer {
  const headers = corsHeaders(request, allowed);
  if (headers['access-control-allow-origin']) {
    headers['access-control-allow-methods'] = methods.join(', ');
    headers['access-control-allow-headers'] = ALLOWED_HEADERS;
    headers['access-control-max-age'] = '600';
  }
  return { status: 204, headers, body: null };
}

/** Copies `extra` (lower-case names) onto an answer, merging Vary. */
export function withHeaders(answer: Answer, extra: Record<string, string>): Answer {
  const { headers } = answer;
  for (const key of Object.keys(extra)) {
    if (key !== 'vary') headers[key] = extra[key]!;
    else headers.vary = headers.vary ? mergedVary(headers.vary, extra.vary!) : extra.vary!;
  }
  return answer;
}

/** The Vary list `list` with `name` added, unless it names it already (any case). */
function mergedVary(list: string, name: string): string {
  const wanted = name.toLowerCase();
  return list.split(',').some((item) => item.trim().toLowerCase() === wanted) ? list : `${list}, ${name}`;
}
