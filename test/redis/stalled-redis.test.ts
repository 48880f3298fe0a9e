/**
 * A real Redis that blocks without going down (CLIENT PAUSE from a second connection: what a long-running script or
 * a failover that hangs does to the store) under a proxy mounted as a shop mounts it (real HTTP over loopback, the
 * real sandbox): the shopper's create gets the retryable 503 within the store's commandTimeoutMs instead of waiting
 * for Redis, the log says Redis did not answer in time, and the next create after the pause makes the payment, once.
 */
import { Redis } from 'ioredis';
import { afterAll, describe, expect, it } from 'vitest';
import { createRedisStore } from '../../src/redis/index.js';
import { systemClock, within } from '../../src/shared/clock.js';
import { capturingLogger } from '../proxy/harness.js';
import { eventually, startLive, type Live } from '../proxy/sandbox-harness.js';
import { startRedisServer } from './redis-server-harness.js';

const cleanup: (() => Promise<unknown>)[] = [];
afterAll(async () => {
  for (const step of cleanup.reverse()) await step().catch(() => {});
});

const COMMAND_TIMEOUT_MS = 300;

/** A Redis of its own, a store on it whose commands time out after COMMAND_TIMEOUT_MS, and a second connection to pause it. */
async function pausableRedis() {
  const redis = await startRedisServer();
  cleanup.push(() => redis.stop());
  const admin = new Redis(redis.url);
  cleanup.push(async () => admin.disconnect());
  const store = createRedisStore({ url: redis.url, onError: () => {}, closeTimeoutMs: 10, commandTimeoutMs: COMMAND_TIMEOUT_MS });
  cleanup.push(() => store.close());
  return { admin, store };
}

/** A shop on a pausableRedis(), and the connection that pauses it. */
async function shopOnRedis(proxyOptions: Parameters<typeof startLive>[0] = {}) {
  const { admin, store } = await pausableRedis();
  const { lines, logger } = capturingLogger();
  const live = await startLive({ store, logger, reconcileEveryMs: 0, ...proxyOptions });
  cleanup.push(() => live.close());
  return { live, admin, log: lines };
}

/** The answer, and how long it took; no answer after `ms`, so that a create that waits for Redis fails the test. */
async function timedCreate(live: Live, orderId: string, ms: number) {
  const startedAt = Date.now();
  let answer: Awaited<ReturnType<Live['create']>> | undefined;
  await within(
    systemClock,
    live.create(orderId).then((a) => void (answer = a)),
    ms,
  );
  return { status: answer?.status, code: answer?.body.error?.code, tookMs: Date.now() - startedAt };
}

const paymentsOf = (live: Live, orderId: string) => live.sandbox.payments().filter((p) => p.orderId === orderId);

describe('the proxy on Redis when Redis blocks', () => {
  it('answers a create 503 within the command timeout while Redis is paused, names the timeout, and makes the payment after the pause', async () => {
    const { live, admin, log } = await shopOnRedis();
    expect((await live.create('STALL-0')).status).toBe(201);

    const PAUSE_MS = 4_000;
    await admin.call('CLIENT', 'PAUSE', String(PAUSE_MS), 'ALL');
    const pausedAt = Date.now();
    const stalled = await timedCreate(live, 'STALL-1', PAUSE_MS + 2_000);
    expect({ status: stalled.status, code: stalled.code }).toEqual({ status: 503, code: 'unavailable' });
    // Within a few timeouts (each store command is bounded, and the create fails at its first), not the pause.
    expect(stalled.tookMs).toBeLessThan(PAUSE_MS / 2);
    expect(log.join('\n')).toMatch(/the redis store failed; answering 503 unavailable.*Redis did not answer within 300 ms/);

    // The admin connection's PING is answered once the pause is over.
    await admin.ping();
    expect(Date.now() - pausedAt).toBeGreaterThanOrEqual(PAUSE_MS - 100);
    expect((await timedCreate(live, 'STALL-1', 5_000)).status).toBe(201);
    expect(paymentsOf(live, 'STALL-1')).toHaveLength(1);
  }, 30_000);

  it('gives back the order lease whose claim Redis carried out after the store gave up on it, so the retry makes the payment', async () => {
    let pauseWrites: (() => Promise<unknown>) | undefined;
    const { live, admin, log } = await shopOnRedis({
      // The shop prices the order after the rate count and before the create reads and claims the order.
      resolveOrder: async () => {
        const pause = pauseWrites;
        pauseWrites = undefined;
        await pause?.();
        return { amount: '499.00', currency: 'INR' };
      },
    });
    // Writes wait from here on, reads go on: the create reads the order, then its claim of the order times out.
    pauseWrites = () => admin.call('CLIENT', 'PAUSE', '60000', 'WRITE');
    const stalled = await timedCreate(live, 'GHOST-1', 5_000);
    expect({ status: stalled.status, code: stalled.code }).toEqual({ status: 503, code: 'unavailable' });
    expect(log.join('\n')).toMatch(/"operation":"claim".*Redis did not answer within 300 ms/);

    // Redis moves on and carries out the claim nobody waits for any more.
    await admin.call('CLIENT', 'UNPAUSE');
    const retried = await timedCreate(live, 'GHOST-1', 5_000);
    expect(retried.status).toBe(201);
    expect(paymentsOf(live, 'GHOST-1')).toHaveLength(1);
  }, 30_000);

  it('makes no second payment when Redis stalls right after the service made one for an order it knows', async () => {
    let pauseAfterCreate: (() => Promise<unknown>) | undefined;
    const { live, admin, log } = await shopOnRedis({
      // The service's answer to a create arrives, and Redis stalls before the proxy can record the payment.
      fetch: async (input, init) => {
        const answer = await fetch(input, init);
        const url = input instanceof Request ? input.url : String(input);
        if (new URL(url).pathname === '/api/v2/payments' && pauseAfterCreate) {
          const pause = pauseAfterCreate;
          pauseAfterCreate = undefined;
          await pause();
        }
        return answer;
      },
    });
    expect((await live.create('FLIP-1', 'upi')).status).toBe(201);

    // The shopper switches to SBP: the order is known, so the retry is not looked up at the service by itself.
    pauseAfterCreate = () => admin.call('CLIENT', 'PAUSE', '1500', 'ALL');
    const stalled = await live.create('FLIP-1', 'sbp');
    expect({ status: stalled.status, code: stalled.body.error?.code }).toEqual({ status: 503, code: 'unavailable' });
    await admin.ping();

    const retried = await live.create('FLIP-1', 'sbp');
    expect(retried.status).toBeLessThan(300);
    const made = paymentsOf(live, 'FLIP-1').filter((p) => p.method === 'sbp');
    expect(made.map((p) => p.id)).toEqual([retried.body.payment.id]);
    expect(log.join('\n')).toMatch(new RegExp(`a payment made at the service could not be recorded.*"paymentId":"${made[0]!.id}"`));
  }, 30_000);

  it('makes a subscription asked for while Redis is paused once the pause is over, and delivers its messages', async () => {
    const { admin, store } = await pausableRedis();
    // The subscriber connection is opened by the first subscription, before the pause.
    await store.subscribe('warm', () => {});

    const PAUSE_MS = 1_500;
    await admin.call('CLIENT', 'PAUSE', String(PAUSE_MS), 'ALL');
    const heard: string[] = [];
    // Waiting for Redis is what the subscriber connection does on purpose: no command timeout cuts it.
    const unsubscribe = await store.subscribe('news', (message) => heard.push(message));
    await store.publish('news', 'after the pause');
    await eventually(() => heard.length > 0, 5_000, 'the message to arrive');
    expect(heard).toEqual(['after the pause']);
    await unsubscribe();
  }, 30_000);
});
