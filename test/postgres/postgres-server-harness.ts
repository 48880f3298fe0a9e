/**
 * A real PostgreSQL for the tests: a throwaway cluster (initdb) in a temporary folder, started by the test file
 * itself on a free loopback port with its socket in that folder, and removed afterwards (test/tools/postgres-server.mjs,
 * which the bench uses too). A system PostgreSQL on 5432, if there is one, is never touched. PostgreSQL refuses to
 * run as root, so as root the cluster belongs to the `postgres` user. `stop()` and `start()` let a test take the
 * database away and bring it back on the same port with the same data. When no PostgreSQL can be found the suite
 * fails with the command that installs one, instead of skipping.
 */

export interface PostgresServer {
  /** postgres://postgres@127.0.0.1:<port>/postgres */
  url: string;
  port: number;
  /** Starts it again on the same port and data after a stop(). */
  start(): Promise<void>;
  /** A fast shutdown: open transactions are rolled back and every client is disconnected. */
  stop(): Promise<void>;
  /** Stops it for good and removes its folder. */
  remove(): Promise<void>;
}

/** The plain .mjs tool; it has no type declarations. */
interface PostgresTool {
  startPostgres(settings?: string[]): Promise<PostgresServer>;
}

export async function startPostgresServer(): Promise<PostgresServer> {
  const tool = (await import(new URL('../tools/postgres-server.mjs', import.meta.url).href)) as PostgresTool;
  return tool.startPostgres();
}
