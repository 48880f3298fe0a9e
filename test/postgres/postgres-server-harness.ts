import { afterAll, beforeAll } from 'vitest';

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

/**
 * A PostgreSQL for the whole test file: started before its tests (registered where this is called, so the file's
 * own `beforeAll` that opens a client runs after it and its `afterAll` that closes one runs before the removal) and
 * removed after them. What it returns stands for the server once it is up.
 */
export function usePostgresServer(): PostgresServer {
  let started: PostgresServer | undefined;
  beforeAll(async () => {
    started = await startPostgresServer();
  }, 60_000);
  afterAll(async () => {
    await started?.remove();
  });
  const running = (): PostgresServer => {
    if (!started) throw new Error('the test PostgreSQL is not up: usePostgresServer() is read before its beforeAll ran');
    return started;
  };
  return {
    get url() {
      return running().url;
    },
    get port() {
      return running().port;
    },
    start: () => running().start(),
    stop: () => running().stop(),
    remove: () => running().remove(),
  };
}
