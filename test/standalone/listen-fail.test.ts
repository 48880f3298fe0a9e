/**
 * A standalone server that cannot listen (its port taken by another process, a HOST that is not this machine's)
 * stops with a line that names the setting to change, not Node's bare "listen EADDRINUSE", and lets go of the
 * store it had opened, so that a program that started it (a supervisor, a test harness) is not kept alive by it.
 */
import { createServer, type Server } from 'node:net';
import { Redis } from 'ioredis';
import { afterAll, describe, expect, it } from 'vitest';
import { readStandaloneConfig, startStandalone } from '../../src/standalone/index.js';
import { startRedisServer, type RedisServer } from '../redis/redis-server-harness.js';
import { offlineStandaloneEnv } from '../support/standalone-env.js';

const cleanup: (() => Promise<unknown>)[] = [];
afterAll(async () => {
  for (const step of cleanup.reverse()) await step().catch(() => {});
});

async function takenPort(): Promise<number> {
  const taker: Server = createServer();
  await new Promise<void>((resolve) => taker.listen(0, '127.0.0.1', () => resolve()));
  cleanup.push(() => new Promise((resolve) => taker.close(resolve)));
  return (taker.address() as { port: number }).port;
}

describe('a standalone server whose port is taken', () => {
  it('stops naming PORT, and closes the store it opened', async () => {
    const redis: RedisServer = await startRedisServer();
    cleanup.push(() => redis.stop());
    const admin = new Redis(redis.url);
    cleanup.push(async () => admin.disconnect());
    const port = await takenPort();
    const config = readStandaloneConfig({ ...offlineStandaloneEnv(redis.url), PORT: String(port) });

    const error = await startStandalone(config, { log: () => {}, reconcileEveryMs: 0 }).then(
      (server) => server.close().then(() => undefined),
      (caught: unknown) => caught as Error,
    );

    expect(error?.message).toBe(`PORT (${port} on 127.0.0.1): another process already listens there: stop it, or set PORT to a free port`);
    const clients = async () => Number(/connected_clients:(\d+)/.exec(await admin.info('clients'))?.[1]);
    for (let i = 0; i < 50 && (await clients()) > 1; i++) await new Promise((resolve) => setTimeout(resolve, 20));
    expect(await clients()).toBe(1); // the admin connection alone
  }, 20_000);
});
