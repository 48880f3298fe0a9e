/**
 * Who a shopper is, for the proxy's per-client limits, when the standalone server sits behind the shop's web
 * server (as it is meant to): every request then comes from the web server's own address, and without a header
 * naming the shopper all of them would share one client's limits (30 creates a minute, 10 open event streams for
 * the whole shop). PAYIN_CLIENT_IP_HEADER names the header that web server sets: `X-Real-IP`, or
 * `X-Forwarded-For`, whose last address is the one the shop's own web server appended (earlier ones are whatever
 * the browser claimed). A request without the header is counted by its peer address, as with no setting at all.
 */
import { remoteAddressOf } from '../server/index.js';

/** A header name as HTTP allows one (a token). */
export function isHeaderName(name: string): boolean {
  return /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/.test(name);
}

/**
 * The proxy's `clientId`: the last address in `header`, else the peer address (the proxy counts an IPv6 one by its
 * /64, as it counts every client).
 */
export function clientIdFromHeader(header: string): (request: Request) => string | undefined {
  const name = header.toLowerCase();
  return (request) => {
    // An address is at most 45 characters; more is not one, and must not make a long key in the store.
    return request.headers.get(name)?.split(',').at(-1)?.trim().slice(0, 64) || remoteAddressOf(request);
  };
}
