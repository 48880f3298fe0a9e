/**
 * A schema migration's transaction, held by PostgreSQL rather than by postgres.js. The client's own transactions
 * (`sql.begin()`, `sql.reserve()`) keep a connection to themselves, and postgres.js 3.4.9 ends the whole process
 * when that connection closes under one: it writes the ROLLBACK to a socket already gone, an uncaught TypeError
 * (porsager/postgres#1208). So a migration gets a client of its own with one connection (`max: 1`, which is also
 * what postgres.js asks before it lets a plain `BEGIN` through) and sends BEGIN, its statements and COMMIT as
 * ordinary queries: should the connection close, the statement in flight fails like any other, and PostgreSQL
 * rolls back whatever the transaction had done.
 *
 * Such a client connects again for its next query, and a statement on that new connection would run outside the
 * transaction: its own commit, without the advisory lock and without the version row. So every statement goes out
 * as one simple-protocol string (no parameters; values are written in with `textLiteral`) behind a guard that
 * raises unless the setting made by SET LOCAL at BEGIN is there, and the migration stops at its first error.
 */
import type { Row, Sql } from 'postgres';

/** Set for the transaction only: a connection opened after the migration's was lost does not have it. */
const MARK = 'payin.migrating';

const GUARD = `DO $guard$ BEGIN
  IF current_setting('${MARK}', true) IS DISTINCT FROM 'on' THEN
    RAISE EXCEPTION 'the schema migration''s transaction ended with its connection: nothing of it was kept, and it runs again on the next start';
  END IF;
END $guard$;`;

export interface MigrationSession {
  /** Runs `statements` (one string, no parameters) in the transaction; the rows of the last one that returns rows. */
  run(statements: string): Promise<Row[]>;
}

/**
 * Runs `work` in one transaction on a client of its own, opened by `open` (one connection) and ended afterwards,
 * and commits it. A failure (the database gone, a statement refused) leaves nothing: ending the client closes the
 * connection, and PostgreSQL rolls back a transaction whose connection is gone.
 */
export async function inMigrationTransaction(open: () => Sql, work: (session: MigrationSession) => Promise<void>): Promise<void> {
  const client = open();
  try {
    await client.unsafe(`BEGIN; SET LOCAL ${MARK} = 'on'`);
    const session: MigrationSession = {
      run: async (statements) => lastRows(await client.unsafe(`${GUARD} ${statements}`)),
    };
    await work(session);
    await session.run('COMMIT');
  } finally {
    await client.end({ timeout: 0 });
  }
}

/**
 * A string as a SQL expression that cannot break out of its quotes whatever it holds: its UTF-8 bytes in hex,
 * decoded by the server.
 */
export function textLiteral(text: string): string {
  const hex = Array.from(new TextEncoder().encode(text), (byte) => byte.toString(16).padStart(2, '0')).join('');
  return `convert_from(decode('${hex}', 'hex'), 'UTF8')`;
}

/** A multi-statement query answers a list of results when more than one returned rows. */
function lastRows(answer: readonly unknown[]): Row[] {
  const last = answer.at(-1);
  return (Array.isArray(last) ? last : answer) as Row[];
}
