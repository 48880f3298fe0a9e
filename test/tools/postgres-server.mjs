// Finds PostgreSQL's server programs (initdb, postgres) for the PostgreSQL store's tests, which start a
// throwaway cluster of their own in a temporary folder on a free loopback port (never a system service on 5432).
// PG_BIN first (a folder holding initdb), then PATH, then Debian's /usr/lib/postgresql/<version>/bin, newest
// first. On a Debian machine without one, running as root, installs Debian's postgresql without letting the
// package start its own cluster; elsewhere throws with the one command to run. Never a silent skip.
// startPostgres() runs such a cluster, for the tests (test/postgres/postgres-server-harness.ts) and the bench.
import { spawn, spawnSync } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { ensureTool } from './apt.mjs';

const DEBIAN_ROOT = '/usr/lib/postgresql';

/** The folder that holds initdb and postgres, or undefined. */
export function findPostgresBin() {
  const fromEnv = process.env.PG_BIN;
  if (fromEnv) {
    if (existsSync(join(fromEnv, 'initdb'))) return fromEnv;
    throw new Error(`PG_BIN is set to ${fromEnv}, but there is no initdb in it.`);
  }
  for (const dir of (process.env.PATH ?? '').split(delimiter)) {
    if (dir && existsSync(join(dir, 'initdb')) && existsSync(join(dir, 'postgres'))) return dir;
  }
  if (!existsSync(DEBIAN_ROOT)) return undefined;
  const versions = readdirSync(DEBIAN_ROOT)
    .filter((name) => existsSync(join(DEBIAN_ROOT, name, 'bin', 'initdb')))
    .sort((a, b) => Number(b) - Number(a));
  return versions.length ? join(DEBIAN_ROOT, versions[0], 'bin') : undefined;
}

/** Returns the folder of PostgreSQL's programs, installing Debian's package when that is possible. */
export function ensurePostgres() {
  return ensureTool({
    find: findPostgresBin,
    pkg: 'postgresql',
    advice:
      'No PostgreSQL server programs (initdb, postgres) found for the PostgreSQL store tests. Install them and run again, e.g.\n' +
      '  sudo apt-get install -y --no-install-recommends postgresql\n' +
      '(or brew install postgresql), or point PG_BIN at the folder that holds initdb.',
  });
}

/** Who runs the cluster: the `postgres` user when this runs as root (PostgreSQL refuses root). */
function clusterOwner() {
  if (process.getuid?.() !== 0) return undefined;
  const read = (flag) => Number(spawnSync('id', [flag, 'postgres'], { encoding: 'utf8' }).stdout.trim());
  const [uid, gid] = [read('-u'), read('-g')];
  if (!Number.isInteger(uid) || uid <= 0) throw new Error('running as root, but there is no `postgres` user to own the test cluster.');
  return { uid, gid };
}

/** A loopback port nobody listens on right now. */
function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

/**
 * A throwaway cluster (initdb) in a temporary folder, on a free loopback port with its socket in that folder.
 * Resolves once it answers; `stop()`/`start()` take it away and bring it back on the same port and data,
 * `remove()` stops it for good and deletes the folder. `settings` are extra `-c name=value` server settings.
 */
export async function startPostgres(settings = []) {
  const bin = findPostgresBin();
  if (!bin) {
    throw new Error(
      'PostgreSQL not found. Run: node -e "import(\'./test/tools/postgres-server.mjs\').then(m=>m.ensurePostgres())" (or set PG_BIN).',
    );
  }
  const owner = clusterOwner();
  const dir = mkdtempSync(join(tmpdir(), 'payin-pg-'));
  if (owner) chownSync(dir, owner.uid, owner.gid);
  const data = join(dir, 'data');
  const initArgs = ['-D', data, '-U', 'postgres', '--auth=trust', '-E', 'UTF8', '--no-sync', '--no-instructions'];
  const init = spawnSync(join(bin, 'initdb'), initArgs, { encoding: 'utf8', ...owner });
  if (init.status !== 0) {
    rmSync(dir, { recursive: true, force: true });
    throw new Error(`initdb failed: ${init.stderr || init.stdout}`);
  }
  const port = await freePort();
  const url = `postgres://postgres@127.0.0.1:${port}/postgres`;
  let child;
  const start = async () => {
    const args = ['-D', data, '-p', String(port), '-k', dir, '-c', 'listen_addresses=127.0.0.1', '-c', 'fsync=off'];
    for (const setting of ['max_connections=200', 'shared_buffers=32MB', ...settings]) args.push('-c', setting);
    const started = spawn(join(bin, 'postgres'), args, { stdio: ['ignore', 'pipe', 'pipe'], ...owner });
    let output = '';
    started.stdout.on('data', (chunk) => (output = (output + chunk).slice(-2_000)));
    started.stderr.on('data', (chunk) => (output = (output + chunk).slice(-2_000)));
    child = started;
    try {
      await waitUntilAnswering(url, started, 20_000);
    } catch (error) {
      throw new Error(`postgres did not start on port ${port}: ${error.message}\n${output}`);
    }
  };
  const stop = async () => {
    if (child) await stopChild(child);
    child = undefined;
  };
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
async function waitUntilAnswering(url, child, ms) {
  const { default: postgres } = await import('postgres');
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
function stopChild(child) {
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
