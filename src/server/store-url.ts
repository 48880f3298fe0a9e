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
  /**
   * Connection trouble a store meets in the background, where no caller is there to be told (the Redis store's
   * reconnects). Default: the store's own console warning.
   */
  onConnectionError?: (error: Error) => void;
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

/** The kind of store a URL's scheme names. The scheme in any case (URL schemes are case-insensitive), but the memory store only by its exact name, `memory:`: never by a guess or a default. */
function kindOf(text: string): 'memory' | 'sqlite' | 'redis' | 'postgres' | undefined {
  if (text === 'memory:') return 'memory';
  if (/^sqlite:/i.test(text)) return 'sqlite';
  if (/^rediss?:\/\//i.test(text)) return 'redis';
  if (/^postgres(?:ql)?:\/\//i.test(text)) return 'postgres';
  return undefined;
}

/** The store named by `url`. */
export async function storeFromUrl(url: string, options: StoreFromUrlOptions = {}): Promise<ProxyStore> {
  const text = url.trim();
  switch (kindOf(text)) {
    case 'memory': {
      const { createMemoryStore } = await import('../proxy/index.js');
      return createMemoryStore({ clock: options.clock });
    }
    case 'sqlite': {
      const path = sqlitePathOf(text);
      if (!path) throw new TypeError(SQLITE_NEEDS_A_FILE);
      if (isSqliteHostForm(text)) throw new TypeError(SQLITE_HOST_FORM);
      const { createSqliteStore } = await import('../sqlite/index.js');
      return createSqliteStore({ path, clock: options.clock });
    }
    case 'redis': {
      assertReadable(text);
      const { createRedisStore } = await import('../redis/index.js');
      return createRedisStore({ url: text, onError: options.onConnectionError });
    }
    case 'postgres': {
      assertReadable(text);
      const { createPostgresStore } = await import('../postgres/index.js');
      return createPostgresStore({ url: text });
    }
    default:
      throw new TypeError(STORE_URL_FORMS);
  }
}

/** The file a `sqlite:` URL names (`sqlite:///abs.db` is `/abs.db`), or undefined for another kind of store. */
export function sqlitePathOf(url: string): string | undefined {
  const text = url.trim();
  return kindOf(text) === 'sqlite' ? text.slice('sqlite:'.length).replace(/^\/\/(?=\/)/, '') : undefined;
}

/**
 * `sqlite://payin.db`, as some tools write a file beside the program, is `//payin.db` here: a file at the root of
 * the disk, which a service user often may not write and an operator never looks for. Refused, naming both forms.
 */
function isSqliteHostForm(text: string): boolean {
  return /^sqlite:\/\/(?!\/)/i.test(text);
}

const SQLITE_HOST_FORM =
  'PAYIN_STORE_URL: sqlite:// followed by a name would be a file at the root of the disk: write sqlite:./payin.db for a file in the working folder, or sqlite:///var/lib/payin/payin.db (or sqlite:/var/lib/payin/payin.db) for an absolute path';

/** What a store URL must look like. Never with the value: a database URL may carry a password. */
const STORE_URL_FORMS =
  'PAYIN_STORE_URL must start with sqlite:, redis://, rediss://, postgres://, postgresql:// or memory: (such as sqlite:./payin.db).';

const SQLITE_NEEDS_A_FILE = 'PAYIN_STORE_URL: sqlite: needs a file, such as sqlite:./payin.db';

/** Why `url` names no store that storeFromUrl opens, or undefined: for a configuration checked before anything starts. */
export function storeUrlProblem(url: string): string | undefined {
  const text = url.trim();
  const kind = kindOf(text);
  if (!kind) return STORE_URL_FORMS;
  if (kind === 'sqlite' && !sqlitePathOf(text)) return SQLITE_NEEDS_A_FILE;
  if (kind === 'sqlite' && isSqliteHostForm(text)) return SQLITE_HOST_FORM;
  return kind === 'redis' || kind === 'postgres' ? unreadable(text) : undefined;
}

/**
 * Why a database URL cannot be read, or undefined. The database clients say why with the whole URL in the message
 * ('Invalid URL "postgres://payin:<password>@..."'), which would put the password in the log of whatever
 * printed the error; so it is checked here first, and the answer never holds the value.
 */
function unreadable(text: string): string | undefined {
  try {
    const { username, password } = new URL(text);
    decodeURIComponent(username);
    decodeURIComponent(password);
    return undefined;
  } catch {
    return 'PAYIN_STORE_URL cannot be read as a URL (not shown: it may carry a password): check the port (at most 65535), the brackets around an IPv6 host, and percent-encode any of : / ? # [ ] @ % in the user name or password.';
  }
}

function assertReadable(text: string): void {
  const problem = unreadable(text);
  if (problem) throw new TypeError(problem);
}

/** The store URL as a log line may show it: the kind of store and where, never a user name or password. */
export function describeStoreUrl(url: string): string {
  const text = url.trim();
  const kind = kindOf(text);
  if (kind === 'memory' || kind === 'sqlite') return text;
  let where: URL | undefined;
  try {
    where = new URL(text);
  } catch {
    // Not even a URL: shown as its kind, or not at all, since it may still hold a password.
  }
  const name = kind === 'redis' ? 'Redis' : kind === 'postgres' ? 'PostgreSQL' : 'an unknown store';
  if (!where?.host) return name;
  return `${name} at ${where.host}${where.pathname === '/' ? '' : where.pathname}`;
}
