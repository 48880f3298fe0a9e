/**
 * A request's absolute URL and path from node:http's request target and Host header, as the WHATWG URL parser
 * would give them, without running the parser on every request: a status poll is small enough that two URL
 * parses (one for the URL, one for the router's path) were a tenth of its cost. The scheme and Host are parsed
 * once per Host value and kept (a server answers few of them); a target made only of characters the parser copies
 * as they are, with no dot segment to resolve, is appended as it came. Anything else goes through `new URL`.
 */

export interface RequestTarget {
  /** The absolute URL, as `new URL(target, `${protocol}://${host}`).href` writes it. */
  url: string;
  /** Its path, as `new URL(...).pathname` reads it. */
  pathname: string;
}

/**
 * Path characters that the URL parser neither escapes nor interprets (no `%`, which may hide a dot segment, no
 * backslash, which it reads as a slash); in the query `%` is kept too. An apostrophe is escaped in a query, so it
 * stays out of both, and a target that starts with `//` names another host.
 */
const PLAIN_TARGET = /^\/(?!\/)[\w\-.~!$&()*+,;=:@/]*(?:\?[\w\-.~!$&()*+,;=:@/?%]*)?$/;
const DOT_SEGMENT = /\/\.\.?(?:\/|$)/;

/**
 * What comes before the target (`http://host:port`) by Host, one map per scheme (keyed by the header as it came,
 * so no key is built per request), or null for a Host the parser reads as more than a host (a path or a query in
 * it); bounded, since the Host header is the client's to choose.
 */
const prefixes = { http: new Map<string, string | null>(), https: new Map<string, string | null>() };
const MAX_PREFIXES = 64;

/** Throws on a target or Host that the URL parser refuses, as `new URL` does. */
export function parseRequestTarget(target: string, protocol: 'http' | 'https', host: string): RequestTarget {
  const known = prefixes[protocol];
  let prefix = known.get(host);
  if (prefix === undefined) {
    const parsed = new URL(`${protocol}://${host}`);
    prefix = parsed.pathname === '/' && parsed.href.endsWith('/') ? parsed.href.slice(0, -1) : null;
    if (known.size < MAX_PREFIXES) known.set(host, prefix);
  }
  if (prefix !== null && PLAIN_TARGET.test(target)) {
    const query = target.indexOf('?');
    const pathname = query === -1 ? target : target.slice(0, query);
    if (!DOT_SEGMENT.test(pathname)) return { url: prefix + target, pathname };
  }
  const url = new URL(target, `${protocol}://${host}`);
  return { url: url.href, pathname: url.pathname };
}

/** A `.` or `..` segment, written plainly or with `%2e`: what the URL parser resolves away. */
const DOT = /^(?:\.|%2e){1,2}$/i;

/**
 * True when the target's path has a dot segment (between slashes or the backslashes the parser reads as them).
 * Browsers and fetch resolve them before sending, so only other clients send one, and a web server in front that
 * routes by the path as it came (HAProxy's path_beg, Envoy without path normalisation) would hand
 * `/payin/%2e%2e/metrics` to this server as a request under `/payin/`, which the parser resolves to `/metrics`.
 */
export function hasDotSegment(target: string): boolean {
  const end = target.search(/[?#]/);
  const path = end === -1 ? target : target.slice(0, end);
  return path.split(/[/\\]/).some((segment) => DOT.test(segment));
}
