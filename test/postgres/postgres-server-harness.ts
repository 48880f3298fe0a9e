/**
 * A real PostgreSQL for the PostgreSQL store's tests: a throwaway cluster (initdb) in a temporary folder, started
 * by the test file itself on a free loopback port with its socket in that folder, and removed afterwards. A system
 * PostgreSQL on 5432, if there is one, is never touched. PostgreSQL refuses to run as root, so as root the cluster
 * belongs to the `postgres` user. `stop()` and `start()` let a test take the database away and bring it back on
 * the same port with the same data. When no PostgreSQL can be found the suite fails with the command that
 * installs one (test/tools/postgres-server.mjs), instead of skipping.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { chownSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import postgres from 'postgres';
import { freePort } from '../support/free-port.js';

/** The plain .mjs tool that `npm test` also uses (it installs PostgreSQL up front); it has no type declarations. */
interface PostgresTool {
  findPostgresBin(): string | undefined;
}

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

/** Who runs the cluster: the `postgres` user when the tests run as root (PostgreSQL refuses root). */
function clusterOwner(): { uid: number; gid: number } | undefined {
  if (process.getuid?.() !== 0) return undefined;
  const read = (flag: string) => Number(spawnSync('id', [flag, 'postgres'], { encoding: 'utf8' }).stdout.trim());
  const [uid, gid] = [read('-u'), read('-g')];
  if (!Number.isInteger(uid) || uid <= 0) throw new Error('running as root, but there is no `postgres` user to own the test cluster.');
  return { uid, gid };
}

export async function startPostgresServer(): Promise<PostgresServer> {
  const tool = (await import(new URL('../tools/postgres-server.mjs', import.meta.url).href)) as PostgresTool;
  const bin = tool.findPostgresBin();
  if (!bin) {
    throw new Error(
      'PostgreSQL not found. Run: node -e "import(\'./test/tools/postgres-server.mjs\').then(m=>m.ensurePostgres())" (or set PG_BIN).',
    );
  }
  const owner = clusterOwner();
  const dir = mkdtempSync(join(tmpdir(), 'payin-pg-'));
  if (owner) chownSync(dir, owner.uid, owner.gid);
  const data = join(dir, 'data');
  const init = spawnSync(
    join(bin, 'initdb'),
    ['-D', data, '-U', 'postgres', '--auth=trust', '-E', 'UTF8', '--no-sync', '--no-instructions'],
    {
      encoding: 'utf8',
      ...owner,
    },
  );
  if (init.status !== 0) {
    rmSync(dir, { recursive: true, force: true });
    throw new Error(`initdb failed: ${init.stderr || init.stdout}`);
  }
  const port = await freePort();
  let child: ChildProcess | undefined;
  const start = async () => {
    const args = ['-D', data, '-p', String(port), '-k', dir, '-c', 'listen_addresses=127.0.0.1', '-c', 'fsync=off'];
    args.push('-c', 'max_connections=200', '-c', 'shared_buffers=32MB');
    const started = spawn(join(bin, 'postgres'), args, { stdio: ['ignore', 'pipe', 'pipe'], ...owner });
    let output = '';
    started.stdout!.on('data', (chunk) => (output = (output + chunk).slice(-2_000)));
    started.stderr!.on('data', (chunk) => (output = (output + chunk).slice(-2_000)));
    child = started;
    try {
      await waitUntilAnswering(url, started, 20_000);
    } catch (error) {
      throw new Error(`postgres did not start on port ${port}: ${(error as Error).message}\n${output}`);
    }
  };
  const stop = async () => {
    if (child) await stopChild(child);
    child = undefined;
  };
  const url = `postgres://postgres@127.0.0.1:${port}/postgres`;
  try {
    await start();
  } catch (error) {
    await stop();
    rmSync(dir, { recursive: true, force: true });
    throw error;
  }
  return {
    url,
    port,
    start,
    stop,
    remove: async () => {
      await stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Asks `select 1` every 100 ms until it is answered, the process exits, or `ms` of real time has passed. */
async function waitUntilAnswering(url: string, child: ChildProcess, ms: number): Promise<void> {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (child.exitCode !== null) throw new Error(`it exited with code ${child.exitCode}`);
    const sql = postgres(url, { max: 1, connect_timeout: 1, onnotice: () => {} });
    try {
      await sql`select 1`;
      return;
    } catch {
      await new Promise((resolve) => setTimeout(resolve, 100));
    } finally {
      await sql.end({ timeout: 1 });
    }
  }
  throw new Error(`no answer within ${ms} ms`);
}

/** SIGINT (PostgreSQL's fast shutdown), then SIGKILL if it has not exited within ten seconds. */
function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const killer = setTimeout(() => child.kill('SIGKILL'), 10_000);
    child.once('exit', () => {
      clearTimeout(killer);
      resolve();
    });
    child.kill('SIGINT');
  });
}
