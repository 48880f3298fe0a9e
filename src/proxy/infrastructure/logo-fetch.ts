/**
 * Fetching one bank logo for GET {basePath}/sbp-banks/logos/<schema>.png, as a server that a visitor can make
 * fetch things must: the logo URL comes from a list on the network, so it is treated as hostile. Only https, or
 * the list's own origin as the shop configured it (the sandbox serves both on loopback); a host name must resolve
 * to public addresses only (no loopback, private, link-local, unique-local or other reserved ranges); redirects
 * are never followed (a 3xx is a failure: a same-origin redirect to an internal address was how this was
 * attacked); the answer must be an image by its first bytes, not only by its Content-Type; its size is capped
 * while it streams in, and the whole fetch, body included, has one time limit.
 *
 * The resolution check runs before the fetch, which resolves again: a host whose DNS answers change between the
 * two (rebinding) could still slip through. The logo hosts are those of the list the shop configured, and the
 * answer must still be an image, so what could leak is bounded to image bytes.
 */
import ipaddr from 'ipaddr.js';
import { readStreamedBody } from '../../shared/body.js';
import { builtinModule } from '../../shared/builtin-module.js';

export const MAX_LOGO_BYTES = 256 * 1024;

export interface Logo {
  bytes: Uint8Array<ArrayBuffer>;
  type: string;
}

/** Why a logo was not fetched: logged, never shown to the visitor. */
export class LogoRefused extends Error {
  override readonly name = 'LogoRefused';
}

interface NodeDnsPromises {
  lookup(host: string, options: { all: true; verbatim: true }): Promise<{ address: string }[]>;
}

/** The addresses a host name resolves to; undefined where the runtime has no resolver (workers, which reach no private network). */
export type ResolveHost = (host: string) => Promise<string[]> | undefined;

export const resolveWithNodeDns: ResolveHost = (host) => {
  const dns = builtinModule<NodeDnsPromises>('node:dns/promises', 'lookup');
  return dns?.lookup(host, { all: true, verbatim: true }).then((found) => found.map((a) => a.address));
};

/** True for an address on the public internet: ipaddr.js names every special-purpose range, and only `unicast` is not one. */
export function isPublicAddress(address: string): boolean {
  if (!ipaddr.isValid(address)) return false;
  const parsed = ipaddr.process(address); // an IPv4-mapped IPv6 address is judged as the IPv4 address it is
  return parsed.range() === 'unicast';
}

export interface LogoFetchOptions {
  /** The configured list's own origin: trusted as the shop set it, loopback included (the sandbox). */
  listOrigin: string;
  fetch: typeof fetch;
  resolveHost: ResolveHost;
  /** For the whole fetch, the body included. */
  timeLimitMs: number;
}

/** The logo at `url`, or a LogoRefused (or the fetch's own error) saying why not. */
export async function fetchLogo(url: URL, { listOrigin, fetch: fetchImpl, resolveHost, timeLimitMs }: LogoFetchOptions): Promise<Logo> {
  if (url.origin !== listOrigin) {
    if (url.protocol !== 'https:') throw new LogoRefused(`only https logos are fetched, not ${url.protocol}`);
    await requirePublicHost(url.hostname, resolveHost);
  }
  const answer = await fetchImpl(url.href, { redirect: 'manual', signal: AbortSignal.timeout(timeLimitMs) });
  if (answer.status !== 200) {
    await answer.body?.cancel().catch(() => {});
    throw new LogoRefused(`HTTP ${answer.status}${answer.status >= 300 && answer.status < 400 ? ' (redirects are not followed)' : ''}`);
  }
  const declared = answer.headers.get('content-length');
  if (declared !== null && Number(declared) > MAX_LOGO_BYTES) {
    await answer.body?.cancel().catch(() => {});
    throw new LogoRefused(`the logo is larger than ${MAX_LOGO_BYTES} bytes`);
  }
  const bytes = await readStreamedBody(answer, MAX_LOGO_BYTES);
  const type = imageTypeOf(bytes);
  if (!type) throw new LogoRefused(`not a PNG, JPEG, WebP or GIF image (Content-Type ${answer.headers.get('content-type')})`);
  return { bytes, type };
}

async function requirePublicHost(hostname: string, resolveHost: ResolveHost): Promise<void> {
  const host = hostname.replace(/^\[|\]$/g, '');
  const addresses = ipaddr.isValid(host) ? [host] : await resolveHost(host);
  if (addresses === undefined) {
    if (host === 'localhost' || host.endsWith('.localhost')) throw new LogoRefused(`${host} is not a public host`);
    return;
  }
  if (addresses.length === 0) throw new LogoRefused(`${host} resolves to no address`);
  const inner = addresses.find((address) => !isPublicAddress(address));
  if (inner !== undefined) throw new LogoRefused(`${host} resolves to ${inner}, which is not a public address`);
}

/** The image type by the file's own first bytes (its magic number); undefined for anything else, SVG included. */
export function imageTypeOf(bytes: Uint8Array): string | undefined {
  const starts = (...magic: number[]) => magic.every((b, i) => bytes[i] === b);
  if (starts(0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a)) return 'image/png';
  if (starts(0xff, 0xd8, 0xff)) return 'image/jpeg';
  if (starts(0x47, 0x49, 0x46, 0x38)) return 'image/gif';
  if (starts(0x52, 0x49, 0x46, 0x46) && bytes[8] === 0x57 && bytes[9] === 0x45 && bytes[10] === 0x42 && bytes[11] === 0x50)
    return 'image/webp';
  return undefined;
}
