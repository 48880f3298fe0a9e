/**
 * A Redis that is down: a store operation fails after a few connection attempts, so that the proxy answers the
 * shopper with its retryable error, instead of waiting in ioredis's offline queue through its default 20
 * reconnects (measured: 73 s before a create was answered). Counted in connection attempts, not in time.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { createRedisStore } from '../../src/redis/index.js';
import { freePort } from '../support/free-port.js';
import { reconnectQuickly } from './redis-server-harness.js';

const stores: { close(): Promise<void> }[] = [];
afterAll(async () => {
  for (const store of stores) await store.close().catch(() => {});
});

/** A store on a free port where nothing listens, reconnecting quickly, closed after the test. */
async function storeOnClosedPort() {
  const port = await freePort();
  const store = createRedisStore({
    url: `redis://127.0.0.1:${port}`,
    onError: () => {},
    closeTimeoutMs: 10,
    redisOptions: reconnectQuickly,
  });
  stores.push(store);
  return { port, store };
}

describe('the Redis store with Redis down', () => {
  it('fails an operation after a few connection attempts, and the caller hears of it', async () => {
    const port = await freePort(); // nobody listens there
    let attempts = 0;
    const store = createRedisStore({ url: `redis://127.0.0.1:${port}`, onError: () => attempts++, closeTimeoutMs: 10 });
    stores.push(store);
    await expect(store.getPayment('p-1')).rejects.toThrow();
    expect(attempts).toBeGreaterThan(0);
    expect(attempts).toBeLessThanOrEqual(5);
  });

  it('fails a ping the same way, so that a health check hears Redis is down', async () => {
    const { port, store } = await storeOnClosedPort();
    await expect(store.ping()).rejects.toThrow();
    // In the words of the connection's failure, not ioredis's "Reached the max retries per request limit (which is
    // 3). Refer to maxRetriesPerRequest", which sent an operator to raise a setting instead of starting Redis.
    await expect(store.ping()).rejects.toThrow(
      `Redis cannot be reached (connect ECONNREFUSED 127.0.0.1:${port}): is it running, and does the URL name the right host and port?`,
    );
  });

  it("fails a shopper's operation in the connection's words too, so that the log says Redis is down", async () => {
    const { port, store } = await storeOnClosedPort();
    // The proxy logs what an operation failed with: it said "Reached the max retries per request limit" or that
    // Redis "did not answer within 2000 ms ... is it blocked", while nothing listened on the port at all.
    for (const operation of [() => store.getPayment('p-1'), () => store.count('k', 1, 60_000)]) {
      await expect(operation()).rejects.toThrow(`Redis cannot be reached (connect ECONNREFUSED 127.0.0.1:${port})`);
    }
  });

  it('keeps ioredis options the shop sets itself', async () => {
    const port = await freePort();
    let attempts = 0;
    const store = createRedisStore({
      url: `redis://127.0.0.1:${port}`,
      onError: () => attempts++,
      closeTimeoutMs: 10,
      redisOptions: { maxRetriesPerRequest: 0 },
    });
    stores.push(store);
    await expect(store.getPayment('p-1')).rejects.toThrow();
    expect(attempts).toBeLessThanOrEqual(2);
  });
});
