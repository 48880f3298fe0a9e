/**
 * What the standalone server's startup log adds about settings an operator gets wrong without a sign: where a
 * relative SQLite file really is, a callback URL whose path this server does not answer, a backend reached over plain
 * http across a network, and why it cannot listen.
 */
import { isAbsolute, resolve } from 'node:path';
import ipaddr from 'ipaddr.js';
import { sqlitePathOf } from '../server/store-url.js';

/**
 * The service posts its callbacks to PAYIN_CALLBACK_URL; this server takes them at {basePath}/callback. A URL whose
 * path ends otherwise works only if the web server in front rewrites it, and when it does not, every callback is
 * lost (payments then settle only through the slower sweep): said once, at start, rather than refused.
 */
export function callbackPathWarning(callbackUrl: string | undefined, basePath: string): string | undefined {
  const expected = `${basePath}/callback`;
  let path: string;
  try {
    path = new URL(callbackUrl?.trim() ?? '').pathname.replace(/\/+$/, '');
  } catch {
    return undefined;
  }
  return path.endsWith(expected)
    ? undefined
    : `PAYIN_CALLBACK_URL ends in ${path || '/'}, not ${expected}, where this server takes the service's callbacks: unless your web server rewrites that path to ${expected}, callbacks are lost`;
}

/**
 * The shop's backend over plain http beyond this machine and its private network. The pricing answer is not signed
 * (https is what vouches for it), so anyone on the way could make any order cost 1.00; the webhooks are signed but
 * readable, and replayable within the helpers' 5 minutes. Said, not refused: the network between two hosts may be
 * the shop's own, which this server cannot see (a container's name, a private address, .internal, say nothing).
 */
export function plainHttpWarning(name: 'PAYIN_RESOLVE_URL' | 'PAYIN_WEBHOOK_URL', url: string): string | undefined {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return undefined;
  }
  const host = parsed.hostname.replace(/^\[|\]$/g, '');
  if (parsed.protocol !== 'http:' || !beyondPrivateNetwork(host)) return undefined;
  const risk = name === 'PAYIN_RESOLVE_URL' ? 'change the prices it answers' : 'read every payment and replay its webhook';
  return `${name} is plain http to ${host}: anyone on the network between the two can ${risk}; use https:// unless that network is your own`;
}

/** ipaddr.js's names of the ranges a shop's own network uses (carrierGradeNat: Tailscale's, among others). */
const LOCAL_RANGES = new Set(['loopback', 'private', 'linkLocal', 'uniqueLocal', 'carrierGradeNat', 'unspecified']);

/** An address outside LOCAL_RANGES, or a dotted name not kept for local use; a single-label name is a container beside this one. */
function beyondPrivateNetwork(host: string): boolean {
  if (ipaddr.isValid(host)) return !LOCAL_RANGES.has(ipaddr.process(host).range());
  return host.includes('.') && !/\.(localhost|local|internal|lan|home\.arpa)$/i.test(host);
}

/** For a relative SQLite path, the file it is: a service's working directory is rarely where an operator looks. */
export function sqliteFileNote(url: string): string {
  const file = relativeSqliteFile(url);
  return file ? ` (${file})` : '';
}

/** The file a relative sqlite: path names, resolved against the working directory; undefined for anything else. */
export function relativeSqliteFile(url: string): string | undefined {
  const path = sqlitePathOf(url);
  return path && !isAbsolute(path) && path !== ':memory:' ? resolve(path) : undefined;
}

/**
 * Why the server could not listen, naming the setting to change: Node's own words ("listen EADDRINUSE: address
 * already in use 127.0.0.1:8787", "getaddrinfo ENOTFOUND ...") name neither PORT nor HOST.
 */
export function listenProblem(error: unknown, host: string, port: number): Error {
  const code = (error as { code?: unknown })?.code;
  const message =
    code === 'EADDRINUSE'
      ? `PORT (${port} on ${host}): another process already listens there: stop it, or set PORT to a free port`
      : code === 'EACCES'
        ? `PORT (${port}): this process may not listen on a port below 1024: set PORT to 1024 or above, behind your web server`
        : code === 'EADDRNOTAVAIL' || code === 'ENOTFOUND' || code === 'EAI_AGAIN'
          ? `HOST (${host}) is not an address of this machine: set HOST to one of its addresses, such as 127.0.0.1, or 0.0.0.0 for all`
          : `HOST and PORT (${host}:${port}): could not listen: ${(error as Error)?.message ?? String(error)}`;
  return new Error(message, { cause: error });
}
