/**
 * The proxy's store on Redis, for shops that run several proxy instances: every instance that points at the same
 * Redis (and key prefix) sees the same order claims, payments, announcements, rate counters and event-stream
 * messages. Each ProxyStore operation is one Redis command or one Lua script, so it is atomic across instances
 * without locks held in any process. Time is Redis's own (PX and PEXPIRE), which is why this store takes no clock:
 * leases and windows lapse even when the instance that set them is gone.
 */
import type { Redis } from 'ioredis';
import type { OrderRecord, PaymentRecord, ProxyStore } from '../proxy/store.js';
import { COUNT_WITH_EXPIRY, defineScripts, DELETE_IF_EQUALS, PUT_IF_VERSION, runScript } from './lua-scripts.js';
import { ChannelMultiplexer } from './pub-sub.js';
import { ANNOUNCEMENT_COMMITTED, ANNOUNCEMENT_PENDING, redisKeys, toRedisMs, type RedisKeys } from './redis-keys.js';

export interface RedisStoreSettings {
  keyPrefix: string;
  ttlMs: number;
  /** Makes the dedicated subscriber connection for the event streams. */
  openSubscriber: () => Redis;
  /** How long close() waits for Redis to confirm QUIT before it drops the connections. */
  closeTimeoutMs: number;
}

export class RedisStore implements ProxyStore {
  readonly #redis: Redis;
  readonly #keys: RedisKeys;
  readonly #ttlMs: number;
  readonly #pubSub: ChannelMultiplexer;
  readonly #closeTimeoutMs: number;
  #closing: Promise<void> | undefined;

  constructor(connection: Redis, settings: RedisStoreSettings) {
    this.#redis = connection;
    this.#keys = redisKeys(settings.keyPrefix);
    this.#ttlMs = toRedisMs(settings.ttlMs, 'ttlMs');
    this.#pubSub = new ChannelMultiplexer(settings.openSubscriber);
    this.#closeTimeoutMs = settings.closeTimeoutMs;
    defineScripts(connection);
  }

  async claimOrder(orderId: string, owner: string, leaseMs: number): Promise<boolean> {
    const reply = await this.#redis.set(this.#keys.claim(orderId), owner, 'PX', toRedisMs(leaseMs, 'leaseMs'), 'NX');
    return reply === 'OK';
  }

  async releaseOrder(orderId: string, owner: string): Promise<void> {
    await runScript(this.#redis, DELETE_IF_EQUALS, [this.#keys.claim(orderId)], [owner]);
  }

  async getOrder(orderId: string): Promise<OrderRecord | undefined> {
    const json = await this.#redis.get(this.#keys.order(orderId));
    return json === null ? undefined : (JSON.parse(json) as OrderRecord);
  }

  async putOrder(order: OrderRecord): Promise<void> {
    await this.#redis.set(this.#keys.order(order.orderId), JSON.stringify(order), 'PX', this.#ttlMs);
  }

  async getPayment(id: string): Promise<PaymentRecord | undefined> {
    const json = await this.#redis.hget(this.#keys.payment(id), 'record');
    return json === null ? undefined : (JSON.parse(json) as PaymentRecord);
  }

  async putPayment(record: PaymentRecord, expectedVersion: number): Promise<boolean> {
    const key = this.#keys.payment(record.view.id);
    const args = [expectedVersion, record.version, JSON.stringify(record), this.#ttlMs];
    return (await runScript(this.#redis, PUT_IF_VERSION, [key], args)) === 1;
  }

  async claimAnnouncement(paymentId: string, state: string, leaseMs: number): Promise<boolean> {
    const key = this.#keys.announcement(paymentId, state);
    const reply = await this.#redis.set(key, ANNOUNCEMENT_PENDING, 'PX', toRedisMs(leaseMs, 'leaseMs'), 'NX');
    return reply === 'OK';
  }

  async commitAnnouncement(paymentId: string, state: string): Promise<void> {
    // Unconditional, like the memory store: the hook has run, so "announced" must hold even if the lease lapsed.
    await this.#redis.set(this.#keys.announcement(paymentId, state), ANNOUNCEMENT_COMMITTED, 'PX', this.#ttlMs);
  }

  async releaseAnnouncement(paymentId: string, state: string): Promise<void> {
    await runScript(this.#redis, DELETE_IF_EQUALS, [this.#keys.announcement(paymentId, state)], [ANNOUNCEMENT_PENDING]);
  }

  async count(key: string, delta: number, ttlMs: number): Promise<number> {
    if (!Number.isSafeInteger(delta)) throw new RangeError(`count: delta must be an integer, got ${delta}`);
    return runScript(this.#redis, COUNT_WITH_EXPIRY, [this.#keys.counter(key)], [delta, toRedisMs(ttlMs, 'ttlMs')]);
  }

  async publish(channel: string, message: string): Promise<void> {
    await this.#redis.publish(this.#keys.channel(channel), message);
  }

  subscribe(channel: string, listener: (message: string) => void): Promise<() => Promise<void>> {
    return this.#pubSub.subscribe(this.#keys.channel(channel), listener);
  }

  /** Local event-stream listeners, for tests that check that streams let go of theirs. */
  get subscriptionCount(): number {
    return this.#pubSub.listenerCount;
  }

  /**
   * Quits both connections (commands already sent are answered first), so that the process can exit. Calling it
   * again returns the same promise. The store cannot be used afterwards.
   */
  close(): Promise<void> {
    if (!this.#closing) {
      const subscriber = this.#pubSub.connection;
      this.#pubSub.close();
      const connections = subscriber ? [this.#redis, subscriber] : [this.#redis];
      this.#closing = Promise.all(connections.map((c) => quitWithin(c, this.#closeTimeoutMs))).then(() => undefined);
    }
    return this.#closing;
  }
}

/** QUIT, but never waiting longer than `ms` for an unreachable server: then the socket is simply dropped. */
async function quitWithin(connection: Redis, ms: number): Promise<void> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  try {
    await Promise.race([
      connection.quit().catch(() => undefined),
      new Promise<void>((resolve) => {
        timer = setTimeout(resolve, ms);
      }),
    ]);
  } finally {
    clearTimeout(timer);
    connection.disconnect();
  }
}
