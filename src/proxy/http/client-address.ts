/**
 * Who a request comes from, for the per-client limits, on every runtime. Fetch has no standard place for the
 * peer address, so each runtime hands it over its own way: the node adapter attaches it to the request, Bun has
 * `server.requestIP(request)`, Deno `info.remoteAddr`, Hono `getConnInfo(c)`, a worker a header its platform sets
 * (CF-Connecting-IP). The proxy takes it as its second argument, `proxy(request, {clientAddress})`; the
 * `clientId` option overrides all of this.
 */
import type { ProxyRequest } from './exchange.js';
import { remoteAddressOf } from '../../shared/remote-address.js';

/** What a runtime may tell the proxy about a request besides the request itself. */
export interface ProxyRequestInfo {
  /** The peer's address (or any stable identity of the client), as the runtime or a trusted proxy gives it. */
  clientAddress?: string;
}

const given = new WeakMap<ProxyRequest, string>();

/** Remembers the address the runtime handed to the proxy with this request. */
export function rememberClientAddress(request: ProxyRequest, clientAddress: string | undefined): void {
  const address = clientAddress?.trim();
  if (address) given.set(request, address);
}

/** The default `clientId`: the address handed to the proxy, else the one the node adapter attached. */
export function clientAddressOf(request: ProxyRequest): string | undefined {
  return given.get(request) ?? remoteAddressOf(request);
}
