/**
 * A real redis-server for the Redis store's tests, started by the test file itself on a free loopback port, with
 * nothing written to disk unless a test asks for an append-only file (to restart it), and stopped afterwards. A system Redis on
 * 6379, if there is one, is never touched. When no redis-server can be found the suite fails with the command
 * that installs one (test/tools/redis-server.mjs), instead of skipping.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createConnection } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll } from 'vitest';
import { freePort } from '../support/free-port.js';

/** The plain .mjs tool that `npm test` also uses (it installs redis-server up front); it has no type declarations. */
interface RedisServerTool {
  findRedisServer(): string | undefined;
}

/**
 * ioredis options for a store whose test stops Redis: reconnect after 20 ms each time instead of ioredis's growing
 * wait (50 ms more per attempt, up to 2 s), which spent most of such a test between attempts. A command still fails
 * after the store's few reconnects, as it does in a shop, only sooner.
 */
export const reconnectQuickly = { retryStrategy: () => 20 };

export interface RedisServer {
  url: string;
  port: number;
  stop(): Promise<void>;
}

export interface RedisServerOptions {
  /** Persist to an append-only file in this folder (fsync on every write), so that a restart keeps the data. */
  appendOnlyDir?: string;
  /** This port (to restart a server where its clients expect it); otherwise a free one. */
  port?: number;
}

/** Starts redis-server and resolves once it answers PING; tries a few ports in case one was taken meanwhile. */
export async function startRedisServer(options: RedisServerOptions = {}): Promise<RedisServer> {
  const tool = (await import(new URL('../tools/redis-server.mjs', import.meta.url).href)) as RedisServerTool;
  const binary = tool.findRedisServer();
  if (!binary) {
    throw new Error(
      'redis-server not found. Run: node -e "import(\'./test/tools/redis-server.mjs\').then(m=>m.ensureRedisServer())" (or set REDIS_SERVER_PATH).',
    );
  }
  let lastError: unknown;
  for (let attempt = 0; attempt < 3; attempt++) {
    const port = options.port ?? (await freePort());
    // A folder of its own even without persistence: a server that becomes a replica writes the snapshot it receives
    // there, and a dump.rdb left in the working folder would be loaded by every server started after it.
    const scratch = options.appendOnlyDir ? undefined : mkdtempSync(join(tmpdir(), 'payin-redis-'));
    const persistence = options.appendOnlyDir
      ? ['--dir', options.appendOnlyDir, '--appendonly', 'yes', '--appendfsync', 'always']
      : ['--dir', scratch!, '--appendonly', 'no'];
    const child = spawn(binary, ['--port', String(port), '--bind', '127.0.0.1', '--save', '', ...persistence, '--daemonize', 'no'], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout!.on('data', (chunk) => (output = (output + chunk).slice(-2_000)));
    child.stderr!.on('data', (chunk) => (output = (output + chunk).slice(-2_000)));
    try {
      await waitForPong(port, child, 5_000);
      const stop = async () => {
        await stopChild(child);
        if (scratch) rmSync(scratch, { recursive: true, force: true });
      };
      return { url: `redis://127.0.0.1:${port}`, port, stop };
    } catch (error) {
      lastError = new Error(`redis-server did not start on port ${port}: ${(error as Error).message}\n${output}`);
      await stopChild(child);
      if (scratch) rmSync(scratch, { recursive: true, force: true });
    }
  }
  throw lastError;
}

/** Sends PING every 50 ms until +PONG comes back, the process exits, or `ms` of real time has passed. */
async function waitForPong(port: number, child: ChildProcess, ms: number): Promise<void> {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (child.exitCode !== null) throw new Error(`it exited with code ${child.exitCode}`);
    if (await pingOnce(port)) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`no PONG within ${ms} ms`);
}

function pingOnce(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = createConnection({ host: '127.0.0.1', port });
    let answer = '';
    const done = (ok: boolean) => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(500, () => done(false));
    socket.once('error', () => done(false));
    socket.once('connect', () => socket.write('PING\r\n'));
    socket.on('data', (chunk) => {
      answer += chunk.toString();
      if (answer.includes('\r\n')) done(answer.startsWith('+PONG'));
    });
  });
}

/** SIGTERM, then SIGKILL if it has not exited within two seconds. */
function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const killer = setTimeout(() => child.kill('SIGKILL'), 2_000);
    child.once('exit', () => {
      clearTimeout(killer);
      resolve();
    });
    child.kill('SIGTERM');
  });
}

/**
 * A redis-server for the whole test file: started before its tests and stopped after them. What it returns stands
 * for the server once it is up (its url is read inside the tests).
 */
export function useRedisServer(): Pick<RedisServer, 'url'> {
  let started: RedisServer | undefined;
  beforeAll(async () => {
    started = await startRedisServer();
  }, 60_000);
  afterAll(async () => {
    await started?.stop();
  });
  return {
    get url() {
      if (!started) throw new Error('the test redis-server is not up: useRedisServer() is read before its beforeAll ran');
      return started.url;
    },
  };
}
