/**
 * The standalone server's log tells an outage of its store and the recovery, once each, without anyone asking
 * /healthz: an operator who reads the log after the night sees when the store went and when it came back, not
 * only the shoppers' failed requests and then silence. A real redis-server is stopped and started again on its port.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { readStandaloneConfig, startStandalone, type StandaloneServer } from '../../src/standalone/index.js';
import { eventually } from '../proxy/sandbox-harness.js';
import { startRedisServer, type RedisServer } from '../redis/redis-server-harness.js';
import { offlineStandaloneEnv } from '../support/standalone-env.js';

const cleanup: (() => Promise<unknown>)[] = [];
afterAll(async () => {
  for (const step of cleanup.reverse()) await step().catch(() => {});
});

describe('the standalone server watching its store', () => {
  it('logs the store going away and coming back, once each, with nobody asking /healthz', async () => {
    let redis: RedisServer = await startRedisServer();
    cleanup.push(() => redis.stop());
    const log: string[] = [];
    const config = readStandaloneConfig(offlineStandaloneEnv(redis.url));
    const server: StandaloneServer = await startStandalone(config, {
      log: (line) => log.push(line),
      reconcileEveryMs: 0,
      storeCheckEveryMs: 50,
    });
    cleanup.push(() => server.close());
    const said = (pattern: RegExp) => log.filter((line) => pattern.test(line)).length;

    await redis.stop();
    await eventually(() => said(/^error: the redis store is unreachable/) > 0, 15_000, 'the outage to be logged');
    redis = await startRedisServer({ port: redis.port });
    await eventually(() => said(/^the redis store is reachable again$/) > 0, 15_000, 'the recovery to be logged');
    expect(said(/^error: the redis store is unreachable/)).toBe(1);
    expect(said(/^the redis store is reachable again$/)).toBe(1);
  }, 40_000);
});
