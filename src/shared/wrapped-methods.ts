/**
 * A view of an object whose methods are wrapped, for the layers that change how an object's calls fail without
 * touching the object: the proxy's guard around a store (its failures become StoreFailure) and the Redis store's
 * connection (a command timeout gets its own name).
 */

type Method = (...args: unknown[]) => unknown;

/**
 * `target` with each method replaced by `wrap(method, key)`, where `method` calls the original on the target
 * itself: a store's private fields (#db) and ioredis's state on `this` are not reachable through the Proxy. Anything
 * that is not a method passes unchanged. Each method is wrapped once, keyed by the function itself rather than its
 * name, so that one swapped on the object later (by a test, or a shop) is wrapped anew.
 */
export function withWrappedMethods<T extends object>(target: T, wrap: (method: Method, key: string | symbol) => Method): T {
  const wrapped = new WeakMap<object, Method>();
  return new Proxy(target, {
    get(object, key) {
      const value = Reflect.get(object, key, object) as unknown;
      if (typeof value !== 'function' || key === 'constructor') return value;
      let method = wrapped.get(value);
      if (!method) {
        method = wrap((...args) => (value as Method).apply(object, args), key);
        wrapped.set(value, method);
      }
      return method;
    },
  });
}
