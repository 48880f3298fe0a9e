/**
 * `storeFromUrl(url)`: the proxy's store named by one setting, PAYIN_STORE_URL, so that a server (the demo, the
 * standalone proxy, a shop's own) picks memory, SQLite, Redis or PostgreSQL without code. `sqlite:./payin.db`
 * (relative to the working directory) or `sqlite:/abs/path.db`; `redis://...` or `rediss://...`;
 * `postgres://...` or `postgresql://...`; `memory:`. The store modules are imported only when named, so that a shop
 * on memory never loads a native module or a database client.
 */
import type { ProxyStore } from '../proxy/index.js';
import type { Clock } from '../shared/clock.js';

export interface StoreFromUrlOptions {
  clock?: Clock;
}

/** The store URL from the environment: PAYIN_STORE_URL, else PAYIN_REDIS_URL (the older name), else undefined. */
export function storeUrlFromEnv(env: Record<string, string | undefined>): string | undefined {
  const url = (env.PAYIN_STORE_URL ?? env.PAYIN_REDIS_URL ?? '').trim();
  return url || undefined;
}

/**
 * What a server's startup log must say about the store `url` names, beyond its name: for the memory store, that
 * it forgets on restart (a restart can announce a state again and let a paid order be paid again). Undefined
 * for a durable store.
 */
export function storeWarning(url: string): string | undefined {
  return url.trim() === 'memory:'
    ? 'the memory store (PAYIN_STORE_URL=memory:) forgets every payment, order and announcement on restart: a restart can announce "paid" again and take a second payment for a paid order. For tests only; use sqlite:, postgres:// or redis:// for real money.'
    : undefined;
}

/** The store named by `url`. The memory store only by its exact name, `memory:`: never by a guess or a default. */
export async function storeFromUrl(url: string, options: StoreFromUrlOptions = {}): Promise<ProxyStore> {
  const text = url.trim();
  if (text === 'memory:') {
    const { createMemoryStore } = await import('../proxy/index.js');
    return createMemoryStore({ clock: options.clock });
  }
  if (text.startsWith('sqlite:')) {
    const path = text.slice('sqlite:'.length).replace(/^\/\/(?=\/)/, '');
    if (!path) throw new TypeError('PAYIN_STORE_URL: sqlite: needs a file, such as sqlite:./payin.db');
    const { createSqliteStore } = await import('../sqlite/index.js');
    return createSqliteStore({ path, clock: options.clock });
  }
  if (text.startsWith('redis://') || text.startsWith('rediss://')) {
    const { createRedisStore } = await import('../redis/index.js');
    return createRedisStore({ url: text });
  }
  if (/^postgres(?:ql)?:\/\//.test(text)) {
    const { createPostgresStore } = await import('../postgres/index.js');
    return createPostgresStore({ url: text });
  }
  throw new TypeError(STORE_URL_FORMS);
}

/** What a store URL must look like. Never with the value: a database URL may carry a password. */
const STORE_URL_FORMS =
  'PAYIN_STORE_URL must start with sqlite:, redis://, rediss://, postgres://, postgresql:// or memory: (such as sqlite:./payin.db).';

/** Why `url` names no store that storeFromUrl opens, or undefined: for a configuration checked before anything starts. */
export function storeUrlProblem(url: string): string | undefined {
  return /^(?:sqlite:.|rediss?:\/\/|postgres(?:ql)?:\/\/|memory:$)/.test(url.trim()) ? undefined : STORE_URL_FORMS;
}

/** The store URL as a log line may show it: the kind of store and where, never a user name or password. */
export function describeStoreUrl(url: string): string {
  const text = url.trim();
  const kind = /^rediss?:/.test(text) ? 'Redis' : /^postgres(?:ql)?:/.test(text) ? 'PostgreSQL' : undefined;
  if (!kind) return text;
  try {
    const { host, pathname } = new URL(text);
    return `${kind} at ${host}${pathname === '/' ? '' : pathname}`;
  } catch {
    return kind;
  }
}
