/**
 * Per-client limits, kept in the store so that they hold across instances: a fixed one-minute window for creates,
 * status calls and bank logos, and a gauge of open event streams. A client is whatever `clientId(request)` says (the address
 * the runtime handed over, see client-address.ts; behind a reverse proxy, the forwarded address the proxy you trust
 * sets). When a runtime gives no address at all, the limits apply to the request's subject instead (its order or
 * payment), so that one busy shop is never limited as if all its shoppers were one client; a warning says once
 * how to hand the address over.
 */
import type { ProxyRequest } from './exchange.js';
import { ProxyError } from './errors.js';
import { after, type MaybePromise } from '../maybe-async.js';
import type { ResolvedOptions } from '../resolved-options.js';

const WINDOW_MS = 60_000;

export type RatedAction = 'create' | 'status' | 'logo';

const LIMIT_OF = { create: 'createsPerMinute', status: 'statusPerMinute', logo: 'logosPerMinute' } as const;

const warned = new WeakSet<ResolvedOptions>();

/** `client:<id>`, or `<subject>` (such as `order:A-1`) when the runtime gave no client identity. */
function limitKey(options: ResolvedOptions, request: ProxyRequest, subject: string): string {
  const client = options.clientId(request)?.trim();
  if (client) return `client:${client}`;
  if (!warned.has(options)) {
    warned.add(options);
    options.logger.warn(
      'no client address for the per-client limits: pass it as proxy(request, {clientAddress}) (Bun server.requestIP, Deno info.remoteAddr, Hono getConnInfo) or set the clientId option; limiting per order and payment meanwhile',
    );
  }
  return subject;
}

/**
 * Counts the request in this minute's window for its client (or its subject) and throws 429 past the limit; at
 * once when the store counts in this process (countNow), else once the store has counted.
 */
export function enforceRate(options: ResolvedOptions, request: ProxyRequest, action: RatedAction, subject: string): MaybePromise<void> {
  const { clock, store, limits } = options;
  const limit = limits[LIMIT_OF[action]];
  const now = clock.now();
  const window = Math.floor(now / WINDOW_MS);
  const key = `rate:${action}:${limitKey(options, request, subject)}:${window}`;
  return after(store.countNow ? store.countNow(key, 1, WINDOW_MS) : store.count(key, 1, WINDOW_MS), (count) => {
    if (count > limit) {
      const retryAfter = ((window + 1) * WINDOW_MS - now) / 1000;
      throw new ProxyError('rate_limited', `more than ${limit} ${action} requests a minute from this client`, { retryAfter });
    }
  });
}

/**
 * Opens a stream slot for the client, or throws 429 when it has too many open. The returned function gives the
 * slot back; call it exactly once. The gauge expires with the longest possible stream, so a crash cannot leak it.
 */
export async function openStreamSlot(options: ResolvedOptions, request: ProxyRequest, subject: string): Promise<() => Promise<void>> {
  const { store, limits, timeouts } = options;
  const key = `streams:${limitKey(options, request, subject)}`;
  const ttl = timeouts.streamMaxMs + 60_000;
  const open = await store.count(key, 1, ttl);
  if (open > limits.streamsPerClient) {
    await store.count(key, -1, ttl);
    throw new ProxyError('rate_limited', `more than ${limits.streamsPerClient} open event streams from this client`, { retryAfter: 5 });
  }
  let released = false;
  return async () => {
    if (released) return;
    released = true;
    await store.count(key, -1, ttl);
  };
}
