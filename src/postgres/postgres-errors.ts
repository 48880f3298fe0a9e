/**
 * What went wrong with the database, said so that whoever reads the proxy's log line knows what to fix. The
 * proxy answers any store failure as a retryable 500 (and a callback with a 5xx, so the service sends it again);
 * this is where that failure gets a name. A failed operation has written nothing: each is one statement or one
 * transaction, which PostgreSQL rolls back when the connection breaks. The database's address is never echoed,
 * as the URL may carry a password.
 */

export class PostgresStoreError extends Error {
  constructor(
    message: string,
    /** PostgreSQL's SQLSTATE, or the client's code for a connection failure (ECONNREFUSED, CONNECTION_CLOSED). */
    readonly code: string | undefined,
    options: { cause: unknown },
  ) {
    super(message, options);
    this.name = 'PostgresStoreError';
  }
}

/** SQLSTATEs and client codes, and the fix each points at. */
const MEANINGS: Record<string, string> = {
  ECONNREFUSED: 'PostgreSQL refused the connection: is it running, and does PAYIN_STORE_URL name the right host and port?',
  ENOTFOUND: 'the database host name does not resolve: check the host in PAYIN_STORE_URL',
  CONNECT_TIMEOUT: 'PostgreSQL did not answer the connection in time: is it running, or is a firewall in the way?',
  CONNECTION_CLOSED: 'the connection to PostgreSQL broke mid-operation (nothing was written); it reconnects on the next request',
  CONNECTION_ENDED: 'the connection to PostgreSQL was closed (nothing was written); it reconnects on the next request',
  CONNECTION_DESTROYED: 'the connection to PostgreSQL was dropped (nothing was written)',
  ECONNRESET: 'PostgreSQL reset the connection mid-operation (nothing was written); it reconnects on the next request',
  ANSWER_TIMEOUT:
    'PostgreSQL did not answer within answerTimeoutSeconds while the connection stayed open (is a firewall or a failover dropping the packets between this host and the database?)',
  CLOSED_UNANSWERED:
    'the connection to PostgreSQL was closed before the database answered (nothing was written): does a balancer, PgBouncer or a published port in front of it reach it from this host?',
  '57P01': 'PostgreSQL is shutting down (nothing was written); requests succeed again once it is back',
  '57P02': 'PostgreSQL is shutting down after a crash (nothing was written)',
  '57P03': 'PostgreSQL is starting up or in recovery and takes no requests yet',
  '25006': 'the database is read-only (a standby, or default_transaction_read_only is on): point PAYIN_STORE_URL at the primary',
  '53100': "the database's disk is full: free space or grow the volume",
  '53200': 'PostgreSQL ran out of memory',
  '53300': "PostgreSQL has no free connection slot: raise max_connections or lower the store's `max`",
  '28P01': 'PostgreSQL refused the password in PAYIN_STORE_URL',
  '28000': 'PostgreSQL refused the user in PAYIN_STORE_URL (see pg_hba.conf)',
  '3D000': 'the database named in PAYIN_STORE_URL does not exist: create it first',
  '42501': "the user in PAYIN_STORE_URL may not do this: it needs to create and write the store's schema",
};

/** A statement that waited out the connections' lock_timeout (createPostgresStore's lockTimeoutSeconds). */
const lockNotAvailable = (seconds: number | undefined) =>
  `a statement waited longer than ${seconds === undefined ? 'lock_timeout' : `${seconds} s`} for a lock another session holds (VACUUM FULL, CLUSTER, an ALTER TABLE, a LOCK TABLE or a transaction left open; pg_locks and pg_stat_activity say which): nothing was written`;

/**
 * Wraps what the client threw into a PostgresStoreError that names the operation and the likely fix;
 * `lockTimeoutSeconds` is said in the error of a statement that waited that long for a lock.
 */
export function storeError(operation: string, error: unknown, lockTimeoutSeconds?: number): PostgresStoreError {
  if (error instanceof PostgresStoreError) return error;
  const code = (error as { code?: unknown })?.code;
  const key = typeof code === 'string' ? code : undefined;
  const known = key === '55P03' ? lockNotAvailable(lockTimeoutSeconds) : key && MEANINGS[key];
  const meaning = known || (error instanceof Error ? error.message : String(error));
  return new PostgresStoreError(`payin-checkout/postgres: ${operation} failed: ${meaning}${key ? ` (${key})` : ''}`, key, {
    cause: error,
  });
}

/**
 * `statement`, failed with ANSWER_TIMEOUT when the database has not answered within `seconds`. A connection whose
 * packets are dropped (a firewall, a host gone in a failover) neither answers nor closes, and postgres.js waits
 * until TCP gives up, a quarter of an hour. The statement may still reach the database later, whole (each operation
 * is one statement), as a Redis command past the Redis store's commandTimeoutMs may.
 */
export async function answeredWithin<T>(seconds: number | undefined, statement: Promise<T>): Promise<T> {
  if (seconds === undefined) return statement;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(Object.assign(new Error(`no answer within ${seconds} s`), { code: 'ANSWER_TIMEOUT' })), seconds * 1000);
  });
  try {
    return await Promise.race([statement, late]);
  } finally {
    clearTimeout(timer);
  }
}
