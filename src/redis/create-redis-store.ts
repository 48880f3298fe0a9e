/**
 * `createRedisStore(options)`: what a shop calls to give every proxy instance the same state. It opens the
 * command connection at once (commands sent before it is ready wait in ioredis's queue, for at most
 * `commandTimeoutMs`, so the proxy can be created synchronously at start-up) and the subscriber connection only
 * when an event stream first needs it. Connection trouble is reported through `onError`, never thrown from
 * nowhere: ioredis keeps reconnecting, and the store operations in flight fail, which the proxy answers like any
 * other failure of its store.
 */
import { Redis, type RedisOptions } from 'ioredis';
import { checkedCommandTimeout, DEFAULT_COMMAND_TIMEOUT_MS, namingTimeouts } from './command-timeout.js';
import { DEFAULT_KEY_PREFIX, DEFAULT_TTL_MS } from './redis-keys.js';
import { RedisStore } from './redis-store.js';
import { processEnv } from '../shared/env.js';
import { newMessagesOnly } from '../shared/new-messages-only.js';
import { optionNames, refuseUnknownNames } from '../shared/option-names.js';

export interface RedisStoreOptions {
  /**
   * Where Redis is: `redis://[[user]:password@]host[:port][/db]`, or `rediss://` for TLS. Falls back to the
   * PAYIN_REDIS_URL environment variable.
   */
  url?: string;
  /**
   * Put before every key and channel. Default `payin:`. Give each shop (or each environment sharing one Redis)
   * its own, ending in a separator, so that their orders and payments never meet.
   */
  keyPrefix?: string;
  /** How long payments, orders and announcements are kept after their last write. Default 24 hours. */
  ttlMs?: number;
  /**
   * Further ioredis options (TLS certificates, timeouts, retry strategy). Host, port, password and database
   * come from `url`, which wins over the same fields here.
   */
  redisOptions?: RedisOptions;
  /** Connection errors (Redis unreachable, a reconnect failing). Default: a console warning each time the error changes. */
  onError?: (error: Error) => void;
  /** How long close() waits for Redis to confirm QUIT before it drops the connections. Default 2 seconds. */
  closeTimeoutMs?: number;
  /**
   * How long a command may wait for Redis's answer before it fails and the request gets the retryable 503: a Redis
   * that blocks without going down (a long-running script, a CLIENT PAUSE, a failover that hangs) otherwise holds
   * every request for as long as it blocks. Default 2000 ms (`redisOptions.commandTimeout`, when given, is taken
   * instead). The event streams' subscriber connection has no such bound: it waits for news on purpose.
   */
  commandTimeoutMs?: number;
}

const ALLOWED_PROTOCOLS = new Set(['redis:', 'rediss:']);
const OPTION_NAMES = optionNames<RedisStoreOptions>({
  url: true,
  keyPrefix: true,
  ttlMs: true,
  redisOptions: true,
  onError: true,
  closeTimeoutMs: true,
  commandTimeoutMs: true,
});

export function createRedisStore(options: RedisStoreOptions = {}): RedisStore {
  // ioredis's own options go in redisOptions, which is handed to it as it is (ioredis checks nothing either).
  refuseUnknownNames('createRedisStore: options', options, OPTION_NAMES);
  const url = (options.url ?? processEnv().PAYIN_REDIS_URL ?? '').trim();
  if (!url) throw new TypeError('createRedisStore: missing url (or PAYIN_REDIS_URL), such as redis://127.0.0.1:6379.');
  assertRedisUrl(url);
  const keyPrefix = options.keyPrefix ?? DEFAULT_KEY_PREFIX;
  if (typeof keyPrefix !== 'string') throw new TypeError('createRedisStore: keyPrefix must be a string.');
  const onError = options.onError ?? newMessagesOnly((error) => console.warn(`payin-checkout/redis: ${error.message}`));
  const commandTimeoutMs = checkedCommandTimeout(
    options.commandTimeoutMs ?? options.redisOptions?.commandTimeout ?? DEFAULT_COMMAND_TIMEOUT_MS,
  );
  // A command waits for at most three reconnects, then fails, so that a shopper's request gets the proxy's
  // retryable error in about a second when Redis is down; ioredis's default (20) held it for over a minute.
  const connection = new Redis(url, {
    connectionName: 'payin-checkout',
    maxRetriesPerRequest: 3,
    reconnectOnError: reconnectAfterFailover,
    ...options.redisOptions,
    commandTimeout: commandTimeoutMs,
  });
  connection.on('error', onError);
  return new RedisStore(namingTimeouts(connection, commandTimeoutMs), {
    keyPrefix,
    ttlMs: options.ttlMs ?? DEFAULT_TTL_MS,
    closeTimeoutMs: options.closeTimeoutMs ?? 2_000,
    openSubscriber: () => {
      // Same server and options; a subscribed connection cannot run the store's other commands. No command timeout:
      // a SUBSCRIBE that Redis carries out after the store gave up on it would leave a subscription that no listener
      // here holds and nobody unsubscribes (a stream's reads on the command connection are bounded already).
      const subscriber = connection.duplicate({ connectionName: 'payin-checkout:events', commandTimeout: undefined });
      subscriber.on('error', onError);
      return subscriber;
    },
  });
}

/**
 * A READONLY answer means the server this connection reached is a replica now: after a failover the address leads
 * to the new primary, but a connection opened before stays with the old one, which refuses every write for as long
 * as it lives. The command that met it fails (nothing was written; the shopper gets the retryable error) and the
 * connection is opened again, to wherever the address leads now.
 */
function reconnectAfterFailover(error: Error): boolean {
  return error.message.startsWith('READONLY');
}

/** Checks the scheme without ever echoing the URL, which may carry a password. */
function assertRedisUrl(url: string): void {
  let protocol = '';
  try {
    protocol = new URL(url).protocol;
  } catch {
    protocol = '';
  }
  if (!ALLOWED_PROTOCOLS.has(protocol)) {
    throw new TypeError('createRedisStore: url must start with redis:// or rediss:// (is it a host name without the scheme?).');
  }
}
