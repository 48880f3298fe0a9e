/**
 * The process environment where there is one. The proxy and the Redis store read their PAYIN_* settings from
 * it, but they also run on workers and edge runtimes that have no `process`: there the environment is empty
 * and settings must come as options.
 */
export function processEnv(): Record<string, string | undefined> {
  const proc = (globalThis as { process?: { env?: Record<string, string | undefined> } }).process;
  return proc?.env ?? {};
}
