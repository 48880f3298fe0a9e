/**
 * `createPostgresStore({url})`: what a shop calls to give every proxy instance the same state in its PostgreSQL.
 * The client is `postgres` (postgres.js), an optional peer dependency loaded only here: written in plain
 * JavaScript with no dependencies of its own, so it runs unchanged on Node, Bun and Deno, and it has what the store
 * needs built in (a pool, prepared statements, transactions, LISTEN with a reconnect). Creating the store opens
 * nothing: the first operation connects and creates or migrates the schema (call `ready()` to do that at start-up).
 */
import postgres from 'postgres';
import { processEnv } from '../shared/env.js';
import { optionNames, refuseUnknownNames } from '../shared/option-names.js';
import { guardedSockets } from './postgres-socket.js';
import { PostgresStore } from './postgres-store.js';
import { SCHEMA_NAME } from './postgres-schema.js';
import type { TlsSetting } from './secure-socket.js';

export interface PostgresStoreOptions {
  /**
   * Where the database is: `postgres://user:password@host:port/database` (`postgresql://` too; `?sslmode=require`
   * and the other libpq parameters postgres.js knows). Falls back to PAYIN_STORE_URL when that is a postgres URL.
   */
  url?: string;
  /**
   * The schema that holds the store's tables, created when missing. Default `payin`. Give each shop (or each
   * environment sharing one database) its own, so that their orders and payments never meet.
   */
  schema?: string;
  /** How long open payments and unpaid orders are kept after their last write. Default 24 hours. */
  ttlMs?: number;
  /**
   * Connections in the pool (one more is opened for the event streams when they are used, and one for as long as
   * a schema migration runs). Default 10.
   */
  max?: number;
  /** Seconds to wait for a connection before an operation fails. Default 10. */
  connectTimeoutSeconds?: number;
  /** Seconds close() waits for queries in flight before it drops the connections. Default 2. */
  closeTimeoutSeconds?: number;
  /**
   * Seconds a statement may wait for a lock another session holds (VACUUM FULL, an ALTER TABLE, an operator's open
   * transaction) before it fails, nothing written, and the request gets the retryable 503. Default 5.
   */
  lockTimeoutSeconds?: number;
  /**
   * Seconds an operation may wait for the database's answer before it fails and the request gets the retryable 503:
   * a database whose packets are dropped on the way (a firewall, a host gone in a failover) neither answers nor
   * closes the connection, and a request waited until TCP gave up, a quarter of an hour. A connection left
   * unanswered this long is closed, not used again (postgres-socket.ts). Longer than lockTimeoutSeconds. Default
   * lockTimeoutSeconds + 5 (10).
   */
  answerTimeoutSeconds?: number;
}

export const DEFAULT_SCHEMA = 'payin';

/** Whether this runs in workerd (Cloudflare Workers say so in navigator.userAgent). */
const onCloudflareWorkers = () => globalThis.navigator?.userAgent === 'Cloudflare-Workers';
const OPTION_NAMES = optionNames<PostgresStoreOptions>({
  url: true,
  schema: true,
  ttlMs: true,
  max: true,
  connectTimeoutSeconds: true,
  closeTimeoutSeconds: true,
  lockTimeoutSeconds: true,
  answerTimeoutSeconds: true,
});

export function createPostgresStore(options: PostgresStoreOptions = {}): PostgresStore {
  refuseUnknownNames('createPostgresStore: options', options, OPTION_NAMES);
  const fromEnv = processEnv().PAYIN_STORE_URL ?? '';
  const url = (options.url ?? (isPostgresUrl(fromEnv) ? fromEnv : '')).trim();
  if (!url) throw new TypeError('createPostgresStore: missing url (or PAYIN_STORE_URL), such as postgres://payin@127.0.0.1:5432/shop.');
  // Never echo the URL: it may carry a password.
  if (!isPostgresUrl(url)) throw new TypeError('createPostgresStore: url must start with postgres:// or postgresql://.');
  const schema = options.schema ?? DEFAULT_SCHEMA;
  if (typeof schema !== 'string' || !SCHEMA_NAME.test(schema)) {
    throw new TypeError('createPostgresStore: schema must be a lower-case name of letters, digits and _ (at most 48), such as payin.');
  }
  const lockTimeoutSeconds = options.lockTimeoutSeconds ?? 5;
  if (!(typeof lockTimeoutSeconds === 'number' && lockTimeoutSeconds > 0 && Number.isFinite(lockTimeoutSeconds))) {
    throw new TypeError('createPostgresStore: lockTimeoutSeconds must be a positive number of seconds, such as 5.');
  }
  const answerTimeoutSeconds = options.answerTimeoutSeconds ?? lockTimeoutSeconds + 5;
  if (!(typeof answerTimeoutSeconds === 'number' && answerTimeoutSeconds > lockTimeoutSeconds && Number.isFinite(answerTimeoutSeconds))) {
    throw new TypeError(
      `createPostgresStore: answerTimeoutSeconds must be a number of seconds longer than lockTimeoutSeconds (${lockTimeoutSeconds}), such as ${lockTimeoutSeconds + 5}.`,
    );
  }
  const connectTimeoutSeconds = options.connectTimeoutSeconds ?? 10;
  const ownSockets = !onCloudflareWorkers();
  // The TLS the URL asks for, started by the store on its own sockets (read below, where a bad URL is caught).
  let tls: TlsSetting | undefined;
  // A schema migration waits as long as it takes (for another instance's migration, for its locks), so its connection
  // is not destroyed for a long silence; the pool's statements are all failed after answerTimeoutSeconds anyway.
  const client = (max: number, answered: number | undefined = answerTimeoutSeconds) =>
    postgres(url, {
      max,
      connect_timeout: connectTimeoutSeconds,
      // Opened here, so that a connection closed before the database answered fails its statement, and one left
      // unanswered for answerTimeoutSeconds is not used again (postgres-socket.ts). A documented option (its
      // README's `socket: fn`) that its types leave out. TLS is started here too, as postgres.js read it from the
      // URL, and postgres.js told none: starting it, postgres.js takes the guards off the socket (secure-socket.ts).
      // Not on Cloudflare Workers, where postgres.js opens workerd's own sockets: Node's there (nodejs_compat) hid
      // workerd's refusal of a connection opened by another request, and such a request waited out
      // answerTimeoutSeconds instead of failing at once.
      ...(ownSockets
        ? ({ socket: guardedSockets({ answerTimeoutSeconds: answered, tls, connectTimeoutSeconds }), ssl: false } as object)
        : {}),
      // No query of its own on each new connection to learn the array types: when that connection broke, postgres.js
      // rejected the query with nobody waiting for it, an unhandled rejection that ends a Node process. The store
      // hands no array to a statement (publish passes JSON).
      fetch_types: false,
      backoff: reconnectDelaySeconds,
      // Its notices (such as "schema already exists, skipping") are not the shop's business.
      onnotice: () => {},
      // Without a lock timeout a statement waits for as long as another session holds its table: the requests
      // that wait take the pool's connections one by one, and then every request of the proxy waits, with nothing
      // in the log.
      connection: {
        application_name: 'payin-checkout',
        search_path: schema,
        lock_timeout: Math.ceil(lockTimeoutSeconds * 1000),
      },
    });
  let sql: postgres.Sql;
  try {
    // postgres.js's own reading of the URL and the environment; this client opens nothing.
    if (ownSockets) tls = tlsSetting(postgres(url).options);
    sql = client(options.max ?? 10);
  } catch {
    // postgres.js names the whole URL in its message ('Invalid URL "postgres://user:password@..."').
    throw new TypeError(
      'createPostgresStore: url cannot be read as a URL (not shown: it may carry a password): check the port, the brackets around an IPv6 host, and percent-encode any of : / ? # [ ] @ % in the user name or password.',
    );
  }
  return new PostgresStore(sql, {
    schema,
    ttlMs: options.ttlMs ?? 24 * 60 * 60 * 1000,
    closeTimeoutSeconds: options.closeTimeoutSeconds ?? 2,
    lockTimeoutSeconds,
    answerTimeoutSeconds,
    // A URL that opened the pool opens this one too.
    migrationClient: () => client(1, undefined),
  });
}

/**
 * How long a pooled connection waits before it connects again, after `failures` failed connects in a row across
 * the pool: 50 ms doubling up to a second. postgres.js's own grows to 10-20 s within one outage, and a statement
 * handed to a connection waits that out: requests took up to 31 s to get their 503 while the database was down,
 * and up to 20 s more to be served once it was back.
 */
export function reconnectDelaySeconds(failures: number): number {
  return Math.min(0.05 * 2 ** failures, 1);
}

export function isPostgresUrl(url: string): boolean {
  return /^postgres(?:ql)?:\/\//i.test(url.trim());
}

/** The TLS postgres.js would start, from its parsed `ssl` and `sslnegotiation` (its README's options); none: plain. */
function tlsSetting(parsed: { ssl?: unknown }): TlsSetting | undefined {
  const ssl = parsed.ssl as TlsSetting['ssl'] | undefined;
  return ssl ? { ssl, sslnegotiation: (parsed as { sslnegotiation?: unknown }).sslnegotiation } : undefined;
}
