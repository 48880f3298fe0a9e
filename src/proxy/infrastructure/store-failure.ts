/**
 * A failure of the proxy's store, told apart from a bug. The stores fail in their drivers' own error classes
 * (a PostgresStoreError, an ioredis or SQLite error, whatever a shop's own store throws), which the router could
 * only answer as a bare 500 `internal`. The proxy therefore calls its store through `guardedStore`, which wraps
 * whatever a store operation rejects with into a StoreFailure naming the store and the operation; the router
 * answers it 503 `unavailable` with a Retry-After (http/errors.ts), and the log line says the store is the cause.
 *
 * The memory store is not wrapped: it lives in this process and cannot be unreachable, and the status route's
 * answer-at-once path (maybe-async.ts) must not pay for a wrapper. Nothing about the writes changes: an operation
 * that failed is reported, never retried here (the ledger decides what a failed write means for its payment).
 */
import { withWrappedMethods } from '../../shared/wrapped-methods.js';
import type { ProxyStore } from './store.js';

export class StoreFailure extends Error {
  constructor(
    /** What the store is ('postgres', 'redis', 'sqlite', or the class name of a shop's own store). */
    readonly store: string,
    /** The store operation that failed ('getPayment', 'claim', ...). */
    readonly operation: string,
    cause: unknown,
  ) {
    super(`the ${store} store failed in ${operation}: ${cause instanceof Error ? cause.message : String(cause)}`, { cause });
    this.name = 'StoreFailure';
  }
}

/** Operations answered at once from this process, or not the ledger's business: left as they are. */
const UNGUARDED = new Set<PropertyKey>(['getPaymentNow', 'countNow', 'ping', 'close']);

/** A short name for the store, for log lines: `PostgresStore` reads as 'postgres', a plain object as 'custom'. */
export function storeName(store: ProxyStore): string {
  const className = (store as { constructor?: { name?: string } }).constructor?.name;
  if (!className || className === 'Object') return 'custom';
  return /^[A-Z][a-z]+Store$/.test(className) ? className.slice(0, -'Store'.length).toLowerCase() : className;
}

/**
 * The store as the proxy calls it: the same object for the memory store itself (a subclass of it, standing in for
 * a database, is wrapped), else a view of it whose asynchronous operations reject with a StoreFailure. Optional operations stay optional (absent ones stay absent).
 */
export function guardedStore(store: ProxyStore): ProxyStore {
  if (storeName(store) === 'memory') return store;
  const name = storeName(store);
  return withWrappedMethods(store, (operate, key) => {
    // Bound all the same (withWrappedMethods calls each on the store itself), but passed through as they fail.
    if (UNGUARDED.has(key)) return operate;
    const operation = String(key);
    const fail = (error: unknown) => {
      throw error instanceof StoreFailure ? error : new StoreFailure(name, operation, error);
    };
    return (...args: unknown[]) => {
      let result: unknown;
      try {
        result = operate(...args);
      } catch (error) {
        fail(error);
      }
      return result instanceof Promise ? result.catch(fail) : result;
    };
  });
}
