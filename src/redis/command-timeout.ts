/**
 * The bound on how long the store waits for Redis to answer one command. A Redis that blocks without going down
 * (a long-running script, a CLIENT PAUSE, a failover that hangs) keeps its connection open, so ioredis neither
 * reconnects nor gives up: without a bound a shopper's create waited for as long as Redis did, with nothing in the
 * log. With one, the command fails after `commandTimeoutMs` and the proxy answers it as any failure of its store
 * (a retryable 503, one log line naming the store).
 *
 * ioredis says only "Command timed out"; the connection the store uses is wrapped here so that the error names the
 * bound, the likely causes and what a timeout means for the data: Redis still has the command and may carry it out
 * once it moves on (the proxy treats the write as one that may have happened, as it does any failed write).
 */
import type { Redis } from 'ioredis';
import { withWrappedMethods } from '../shared/wrapped-methods.js';

/** Far above a healthy Redis's answer (well under a millisecond on a local network), well under a shopper's patience. */
export const DEFAULT_COMMAND_TIMEOUT_MS = 2_000;

/** Node's timers take at most 2^31-1 ms; a longer one fires at once. */
const MAX_TIMER_MS = 2 ** 31 - 1;

/** The option as given (or the default), checked: a positive number of milliseconds a timer can hold. */
export function checkedCommandTimeout(ms: unknown): number {
  if (typeof ms === 'number' && ms > 0 && ms <= MAX_TIMER_MS) return Math.ceil(ms);
  throw new TypeError(
    `createRedisStore: commandTimeoutMs must be a positive number of milliseconds (at most ${MAX_TIMER_MS}), such as 2000.`,
  );
}

/** A command Redis did not answer within the store's commandTimeoutMs. */
export class RedisCommandTimeout extends Error {
  constructor(
    readonly timeoutMs: number,
    options: { cause: unknown },
  ) {
    super(
      `Redis did not answer within ${timeoutMs} ms (the store's commandTimeoutMs): is it blocked (a long-running script, a CLIENT PAUSE, a failover under way; SLOWLOG GET, LATENCY DOCTOR and CLIENT LIST say which) or out of reach? The command may still be carried out once Redis moves on`,
      options,
    );
    this.name = 'RedisCommandTimeout';
  }
}

/** The text ioredis rejects a command with when commandTimeout passes (ioredis 6, Command.setTimeout). */
const IOREDIS_TIMEOUT = 'Command timed out';

/**
 * The connection as the store calls it: every command that ioredis fails for want of an answer within `timeoutMs`
 * fails with a RedisCommandTimeout instead. Everything else (events, status, other errors) passes unchanged.
 */
export function namingTimeouts(connection: Redis, timeoutMs: number): Redis {
  const rename = (error: unknown) => {
    throw error instanceof Error && error.message === IOREDIS_TIMEOUT ? new RedisCommandTimeout(timeoutMs, { cause: error }) : error;
  };
  return withWrappedMethods(connection, (command) => (...args: unknown[]) => {
    const result = command(...args);
    return result instanceof Promise ? result.catch(rename) : result;
  });
}
