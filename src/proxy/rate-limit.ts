/**
 * Per-client limits, kept in the store so that they hold across instances: a fixed one-minute window for creates
 * and status calls, and a gauge of open event streams. A client is whatever `clientId(request)` says (the peer
 * address by default; behind a reverse proxy, read the forwarded address the proxy you trust sets).
 */
import { ProxyError } from './errors.js';
import type { ResolvedOptions } from './options.js';

const WINDOW_MS = 60_000;

export type RatedAction = 'create' | 'status';

export async function enforceRate(options: ResolvedOptions, request: Request, action: RatedAction): Promise<void> {
  const { clock, store, limits } = options;
  const limit = action === 'create' ? limits.createsPerMinute : limits.statusPerMinute;
  const now = clock.now();
  const window = Math.floor(now / WINDOW_MS);
  const count = await store.count(`rate:${action}:${options.clientId(request)}:${window}`, 1, WINDOW_MS);
  if (count > limit) {
    const retryAfter = ((window + 1) * WINDOW_MS - now) / 1000;
    throw new ProxyError('rate_limited', `more than ${limit} ${action} requests a minute from this client`, { retryAfter });
  }
}

/**
 * Opens a stream slot for the client, or throws 429 when it has too many open. The returned function gives the
 * slot back; call it exactly once. The gauge expires with the longest possible stream, so a crash cannot leak it.
 */
export async function openStreamSlot(options: ResolvedOptions, request: Request): Promise<() => Promise<void>> {
  const { store, limits, timeouts } = options;
  const key = `streams:${options.clientId(request)}`;
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
