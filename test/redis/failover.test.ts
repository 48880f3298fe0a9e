/**
 * A Redis failover as a managed Redis does it: the replica is promoted, the old primary becomes a replica of it,
 * and the address the proxy was given (a DNS name, an endpoint) now leads to the new primary. Connections opened
 * before stay with the old server, which answers every write READONLY; only a new connection reaches the primary.
 * Here that address is a relay on loopback whose target is switched (test/support/cuttable-relay.ts), and the two
 * servers are real.
 */
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRedisStore, type RedisStore } from '../../src/redis/index.js';
import { record } from '../proxy/infrastructure/store-contract.js';
import { startRedisServer, type RedisServer } from './redis-server-harness.js';
import { cuttableRelay } from '../support/cuttable-relay.js';

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

let primary: RedisServer;
let replica: RedisServer;
beforeAll(async () => {
  // One after the other: two at once may be handed the same free port.
  primary = await startRedisServer();
  replica = await startRedisServer();
});
afterAll(async () => {
  await Promise.all([primary?.stop(), replica?.stop()]);
});

describe('the Redis store through a failover', () => {
  it('writes to the new primary once its address leads there, instead of failing READONLY on the old one for good', async () => {
    const address = await cuttableRelay(primary.port);
    const store: RedisStore = createRedisStore({
      url: `redis://127.0.0.1:${address.port}`,
      keyPrefix: 'failover:',
      onError: () => {},
      closeTimeoutMs: 100,
    });
    const [oldPrimary, newPrimary] = [new Redis(primary.url), new Redis(replica.url)];
    try {
      expect(await store.putPayment(record('p-1', 1), 0)).toBe(true);
      await oldPrimary.config('SET', 'repl-diskless-sync-delay', '0');
      await newPrimary.replicaof('127.0.0.1', primary.port);
      for (let i = 0; i < 100 && (await newPrimary.hget('failover:payment:p-1', 'version')) !== '1'; i++) await sleep(50);

      // The failover: the replica is promoted, the old primary follows it, and the address leads to the new one.
      await newPrimary.replicaof('NO', 'ONE');
      await oldPrimary.replicaof('127.0.0.1', replica.port);
      address.switchTo(replica.port);

      // Each try is a shopper's request: a failed one is answered with the retryable 503 and tried again.
      const failures: string[] = [];
      let written = false;
      for (let i = 0; i < 20 && !written; i++) {
        try {
          written = await store.putPayment(record('p-1', 2), 1);
        } catch (error) {
          failures.push((error as Error).message);
          await sleep(100);
        }
      }
      // At most the request that met READONLY fails; the connection is opened again for the next.
      expect({ written, failures: failures.slice(0, 3) }).toEqual({ written: true, failures: failures.slice(0, 1) });
      expect(await newPrimary.hget('failover:payment:p-1', 'version')).toBe('2');
      await expect(store.ping()).resolves.toBeUndefined();
    } finally {
      await store.close();
      await Promise.all([oldPrimary.quit(), newPrimary.quit()]);
      await address.close();
    }
  });
});
