/**
 * A real Redis stopped under a proxy mounted as a shop mounts it (real HTTP over loopback, the real sandbox): the
 * shopper's create and status get 503 `unavailable` with a Retry-After (the widget's Retry), not a bare 500
 * `internal`; the log names the store; `proxy.checkStore()` says unreachable, and ok again once Redis is back.
 */
import { Redis } from 'ioredis';
import { afterAll, describe, expect, it } from 'vitest';
import type { ProxyLogger } from '../../src/proxy/logger.js';
import { createRedisStore } from '../../src/redis/index.js';
import { eventually, startLive } from '../proxy/sandbox-harness.js';
import { reconnectQuickly, startRedisServer, type RedisServer } from './redis-server-harness.js';

const cleanup: (() => Promise<unknown>)[] = [];
afterAll(async () => {
  for (const step of cleanup.reverse()) await step().catch(() => {});
});

async function postJson(url: string, body: unknown) {
  const response = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  return { status: response.status, retryAfter: response.headers.get('retry-after'), body: (await response.json()) as any };
}

describe('the proxy on Redis when Redis stops', () => {
  it('answers create and status 503 unavailable, names the store in its log, and says so in checkStore()', async () => {
    let redis: RedisServer = await startRedisServer();
    cleanup.push(() => redis.stop());
    const store = createRedisStore({
      url: redis.url,
      keyPrefix: 'outage:',
      onError: () => {},
      closeTimeoutMs: 10,
      redisOptions: reconnectQuickly,
    });
    cleanup.push(() => store.close());
    const log: string[] = [];
    const keep = (level: string) => (message: string, fields?: object) =>
      void log.push(`${level}: ${message} ${JSON.stringify(fields ?? {})}`);
    const logger: ProxyLogger = { info: keep('info'), warn: keep('warn'), error: keep('error') };
    const live = await startLive({ store, logger, reconcileEveryMs: 0 });
    cleanup.push(() => live.close());

    const created = await live.create('OUT-1');
    expect(created.status).toBe(201);
    expect(await live.proxy.checkStore()).toEqual({ ok: true, store: 'ok' });

    await redis.stop();
    const status = await postJson(`${live.proxyUrl}/payin/status`, { paymentId: created.body.payment.id, token: created.body.token });
    expect(status).toMatchObject({ status: 503, retryAfter: '5', body: { error: { code: 'unavailable' } } });
    const create = await postJson(`${live.proxyUrl}/payin/payments`, { orderId: 'OUT-2', method: 'upi' });
    expect(create).toMatchObject({ status: 503, retryAfter: '5', body: { error: { code: 'unavailable' } } });
    // A line naming the store (both requests failed alike: the second is folded into a count a minute later); the
    // answer names neither the store nor its address.
    expect(log.filter((line) => line.startsWith('error: the redis store failed'))).toHaveLength(1);
    expect(JSON.stringify(create.body)).not.toMatch(/redis|127\.0\.0\.1/i);
    expect(live.sandbox.payments().filter((p) => p.orderId === 'OUT-2')).toEqual([]);

    await eventually(async () => !(await live.proxy.checkStore()).ok, 10_000, 'checkStore to see Redis gone');
    expect(await live.proxy.checkStore()).toEqual({ ok: false, store: 'unreachable' });

    redis = await startRedisServer({ port: redis.port });
    await eventually(async () => (await live.proxy.checkStore()).ok, 15_000, 'checkStore to see Redis back');
    expect((await live.create('OUT-2')).status).toBe(201);
  }, 40_000);

  it('says unreachable in checkStore() while Redis answers PING but refuses writes (a replica after a failover)', async () => {
    const redis = await startRedisServer();
    const primary = await startRedisServer();
    cleanup.push(
      () => redis.stop(),
      () => primary.stop(),
    );
    const admin = new Redis(redis.url, { lazyConnect: true });
    cleanup.push(async () => admin.disconnect());
    const store = createRedisStore({ url: redis.url, keyPrefix: 'replica:', onError: () => {}, closeTimeoutMs: 10 });
    cleanup.push(() => store.close());
    const log: string[] = [];
    const keep = (level: string) => (message: string, fields?: object) =>
      void log.push(`${level}: ${message} ${JSON.stringify(fields ?? {})}`);
    const live = await startLive({ store, logger: { info: keep('info'), warn: keep('warn'), error: keep('error') }, reconcileEveryMs: 0 });
    cleanup.push(() => live.close());
    expect((await live.create('RO-1')).status).toBe(201);

    await admin.replicaof('127.0.0.1', primary.port);
    expect((await live.create('RO-2')).status).toBe(503);
    expect(await live.proxy.checkStore()).toEqual({ ok: false, store: 'unreachable' });
    expect(log.join('\n')).toMatch(/error: the redis store is unreachable.*READONLY/);

    await admin.replicaof('NO', 'ONE');
    await eventually(async () => (await live.proxy.checkStore()).ok, 5_000, 'checkStore to see writes taken again');
    expect(log.join('\n')).toMatch(/info: the redis store is reachable again/);
    expect((await live.create('RO-2')).status).toBe(201);
  }, 40_000);
});
