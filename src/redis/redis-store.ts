/**
 * The proxy's store on Redis, for shops that run several proxy instances: every instance that points at the same
 * Redis (and key prefix) sees the same order claims, payments, announcements, rate counters and event-stream
 * messages. Each ProxyStore operation is one Redis command or one Lua script, so it is atomic across instances
 * without locks held in any process. Leases and windows run on Redis's own time (PX, PEXPIRE, TIME), which is why
 * this store takes no clock: they lapse even when the instance that set them is gone. Outbox due times are the
 * proxy's (wall-clock) milliseconds.
 */
import type { Redis } from 'ioredis';
import type {
  AuditEntry,
  ConsoleFilter,
  ConsoleStore,
  HistoryEntry,
  PaymentPage,
  PaymentQuery,
} from '../proxy/infrastructure/console-store.js';
import { followedFor, type OrderRecord, type OutboxEntry, type PaymentRecord, type ProxyStore } from '../proxy/infrastructure/store.js';
import {
  CLAIM_ANNOUNCEMENT,
  EXTEND_ANNOUNCEMENT,
  COMMIT_ANNOUNCEMENT,
  COUNT_WITH_EXPIRY,
  defineScripts,
  DELETE_IF_EQUALS,
  ENQUEUE_ANNOUNCEMENT,
  EXPIRE_IF_EQUALS,
  PUT_AND_ENQUEUE,
  PUT_IF_VERSION,
  RESCHEDULE_ANNOUNCEMENT,
  runScript,
  runScriptRaw,
} from './lua-scripts.js';
import { RedisCommandTimeout } from './command-timeout.js';
import { withWrappedMethods } from '../shared/wrapped-methods.js';
import { ChannelMultiplexer } from './pub-sub.js';
import { RedisConsole } from './redis-console.js';
import { markContradicted } from '../proxy/ledger/contradiction-marks.js';
import { systemClock } from '../shared/clock.js';
import { fromOutboxMember, outboxMember, redisKeys, toRedisMs, type RedisKeys } from './redis-keys.js';

export interface RedisStoreSettings {
  keyPrefix: string;
  ttlMs: number;
  /** Makes the dedicated subscriber connection for the event streams. */
  openSubscriber: () => Redis;
  /** How long close() waits for Redis to confirm QUIT before it drops the connections. */
  closeTimeoutMs: number;
}

export class RedisStore implements ProxyStore, ConsoleStore {
  readonly #redis: Redis;
  readonly #keys: RedisKeys;
  readonly #ttlMs: number;
  readonly #pubSub: ChannelMultiplexer;
  readonly #closeTimeoutMs: number;
  readonly #console: RedisConsole;
  #closing: Promise<void> | undefined;
  /** Why the command connection last failed to connect, until it is ready again: what a failed ping is told in. */
  #connectionFailure: Error | undefined;

  constructor(connection: Redis, settings: RedisStoreSettings) {
    // Every command, not only the health check's: a shopper's request that met a Redis that is down was logged in
    // ioredis's words ("Reached the max retries per request limit (which is 3). Refer to maxRetriesPerRequest") or
    // as a command timeout that asks whether Redis is blocked, neither of which says that it cannot be reached.
    this.#redis = withWrappedMethods(connection, (command) => (...args: unknown[]) => {
      const result = command(...args);
      return result instanceof Promise ? result.catch((error: unknown) => Promise.reject(this.#inWordsOfConnection(error))) : result;
    });
    connection.on('error', (error: Error) => {
      this.#connectionFailure = error;
    });
    connection.on('ready', () => {
      this.#connectionFailure = undefined;
    });
    this.#keys = redisKeys(settings.keyPrefix);
    this.#ttlMs = toRedisMs(settings.ttlMs, 'ttlMs');
    this.#pubSub = new ChannelMultiplexer(settings.openSubscriber);
    this.#closeTimeoutMs = settings.closeTimeoutMs;
    defineScripts(connection);
    // No clock of its own (see above): a mark's write time is the wall clock's, its `at` the timeline line's.
    this.#console = new RedisConsole(this.#redis, this.#keys, (id, { at, state }) =>
      markContradicted({ store: this, clock: systemClock }, id, state, at),
    );
  }

  async claim(key: string, owner: string, leaseMs: number): Promise<boolean> {
    const reply = await this.#redis.set(this.#keys.lease(key), owner, 'PX', toRedisMs(leaseMs, 'leaseMs'), 'NX');
    return reply === 'OK';
  }

  async release(key: string, owner: string): Promise<void> {
    await runScript(this.#redis, DELETE_IF_EQUALS, [this.#keys.lease(key)], [owner]);
  }

  async extend(key: string, owner: string, leaseMs: number): Promise<boolean> {
    return (await runScript(this.#redis, EXPIRE_IF_EQUALS, [this.#keys.lease(key)], [owner, toRedisMs(leaseMs, 'leaseMs')])) === 1;
  }

  async getOrder(orderId: string): Promise<OrderRecord | undefined> {
    const json = await this.#redis.get(this.#keys.order(orderId));
    return json === null ? undefined : (JSON.parse(json) as OrderRecord);
  }

  async putOrder(order: OrderRecord): Promise<void> {
    const key = this.#keys.order(order.orderId);
    // A paid order is kept for good: a create for it must be refused forever.
    if (order.paidBy !== undefined) await this.#redis.set(key, JSON.stringify(order));
    else await this.#redis.set(key, JSON.stringify(order), 'PX', this.#ttlMs);
  }

  async getPayment(id: string): Promise<PaymentRecord | undefined> {
    const json = await this.#redis.hget(this.#keys.payment(id), 'record');
    return json === null ? undefined : (JSON.parse(json) as PaymentRecord);
  }

  async putPayment(record: PaymentRecord, expectedVersion: number): Promise<boolean> {
    const [keys, args] = this.#putArguments(record, expectedVersion);
    return (await runScript(this.#redis, PUT_IF_VERSION, keys, args)) === 1;
  }

  /** The payment and its announcement in one script. */
  async putPaymentAndEnqueue(record: PaymentRecord, expectedVersion: number, dueAt: number): Promise<boolean> {
    const { id, state } = record.view;
    const [keys, args] = this.#putArguments(record, expectedVersion);
    const outbox = [this.#keys.announced(id, state), this.#keys.outboxEntry(id, state), this.#keys.outbox()];
    return (await runScript(this.#redis, PUT_AND_ENQUEUE, [...keys, ...outbox], [...args, outboxMember(id, state), dueAt])) === 1;
  }

  /** The record, the follow index and the console's listing, written by one script (lua-scripts.ts). */
  #putArguments(record: PaymentRecord, expectedVersion: number): [string[], (string | number)[]] {
    const id = record.view.id;
    // An open payment's time to live runs from the end of its follow window when that is later (followUntil is on the
    // proxy's clock): one payable for days (a bank transfer) stays while reconciliation asks about it.
    const keep = record.view.final ? 0 : this.#ttlMs + followedFor(record, Date.now());
    const follow = record.followUntil === undefined ? '0' : '1';
    return [
      [this.#keys.payment(id), this.#keys.followed()],
      [expectedVersion, record.version, JSON.stringify(record), keep, id, follow, ...this.#console.indexArguments(record)],
    ];
  }

  async followedPayments(limit: number, afterId?: string): Promise<string[]> {
    if (limit <= 0) return [];
    const from = afterId === undefined ? '-' : `(${afterId}`;
    return this.#redis.zrangebylex(this.#keys.followed(), from, '+', 'LIMIT', 0, limit);
  }

  async enqueueAnnouncement(paymentId: string, state: string, dueAt: number): Promise<boolean> {
    const keys = [this.#keys.announced(paymentId, state), this.#keys.outboxEntry(paymentId, state), this.#keys.outbox()];
    return (await runScript(this.#redis, ENQUEUE_ANNOUNCEMENT, keys, [outboxMember(paymentId, state), dueAt])) === 1;
  }

  /**
   * A held entry is scored by the end of its lease, so it is listed when `now` is past that; it is left out while its
   * lease runs on Redis's clock (the proxy's `now` may be the end of time: see ProxyStore).
   */
  async dueAnnouncements(now: number, limit: number): Promise<OutboxEntry[]> {
    if (limit <= 0) return [];
    const entries: OutboxEntry[] = [];
    let redisNow: number | undefined;
    for (let offset = 0; entries.length < limit; offset += limit) {
      const members = await this.#redis.zrangebyscore(this.#keys.outbox(), '-inf', now, 'LIMIT', offset, limit);
      for (const member of members) {
        const [paymentId, state] = fromOutboxMember(member);
        const hash = await this.#redis.hgetall(this.#keys.outboxEntry(paymentId, state));
        if (hash.dueAt === undefined) continue;
        if (Number(hash.heldUntil ?? 0) > 0) {
          redisNow ??= await this.#now();
          if (Number(hash.heldUntil) > redisNow) continue;
        }
        entries.push({ paymentId, state, attempts: Number(hash.attempts ?? 0), dueAt: Number(hash.dueAt) });
        if (entries.length === limit) break;
      }
      if (members.length < limit) break;
    }
    return entries;
  }

  /** Redis's own time in epoch ms, which leases are measured on. */
  async #now(): Promise<number> {
    const [seconds, micros] = await this.#redis.time();
    return Number(seconds) * 1000 + Math.floor(Number(micros) / 1000);
  }

  async claimAnnouncement(paymentId: string, state: string, leaseMs: number): Promise<OutboxEntry | undefined> {
    const keys = [this.#keys.outboxEntry(paymentId, state), this.#keys.outbox()];
    const reply = await runScriptRaw(this.#redis, CLAIM_ANNOUNCEMENT, keys, [
      outboxMember(paymentId, state),
      toRedisMs(leaseMs, 'leaseMs'),
    ]);
    if (!Array.isArray(reply)) return undefined;
    return { paymentId, state, attempts: Number(reply[0]), dueAt: Number(reply[1]) };
  }

  async extendAnnouncement(paymentId: string, state: string, leaseMs: number): Promise<boolean> {
    const keys = [this.#keys.outboxEntry(paymentId, state), this.#keys.outbox()];
    const reply = await runScriptRaw(this.#redis, EXTEND_ANNOUNCEMENT, keys, [
      outboxMember(paymentId, state),
      toRedisMs(leaseMs, 'leaseMs'),
    ]);
    return reply === 1;
  }

  async commitAnnouncement(paymentId: string, state: string): Promise<void> {
    const keys = [this.#keys.outboxEntry(paymentId, state), this.#keys.outbox(), this.#keys.announced(paymentId, state)];
    await runScript(this.#redis, COMMIT_ANNOUNCEMENT, keys, [outboxMember(paymentId, state)]);
  }

  async rescheduleAnnouncement(paymentId: string, state: string, dueAt: number, failed = true): Promise<void> {
    const keys = [this.#keys.outboxEntry(paymentId, state), this.#keys.outbox()];
    await runScript(this.#redis, RESCHEDULE_ANNOUNCEMENT, keys, [outboxMember(paymentId, state), dueAt, failed ? 1 : 0]);
  }

  async wasAnnounced(paymentId: string, state: string): Promise<boolean> {
    return (await this.#redis.exists(this.#keys.announced(paymentId, state))) === 1;
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

  // The console's operations (console-store.ts), in redis-console.ts.

  listPayments(query: PaymentQuery): Promise<PaymentPage> {
    return this.#console.list(query);
  }

  countPayments(now: number): Promise<Record<ConsoleFilter, number>> {
    return this.#console.counts(now);
  }

  appendHistory(paymentId: string, entry: HistoryEntry): Promise<void> {
    return this.#console.appendHistory(paymentId, entry);
  }

  paymentHistory(paymentId: string): Promise<HistoryEntry[]> {
    return this.#console.history(paymentId);
  }

  appendAudit(entry: AuditEntry): Promise<void> {
    return this.#console.appendAudit(entry);
  }

  auditLog(paymentId: string | undefined, limit: number): Promise<AuditEntry[]> {
    return this.#console.audit(paymentId, limit);
  }

  /**
   * Health checks: one write on the command connection, of a key of its own that expires. A PING was answered by a
   * Redis that refuses every write of the ledger: a replica after a failover (READONLY), one out of memory under
   * noeviction (OOM), one that cannot save its snapshot (MISCONF). It fails as any command does while Redis is down.
   */
  async ping(): Promise<void> {
    await this.#redis.set(this.#keys.health(), String(Date.now()), 'PX', 60_000);
  }

  /**
   * ioredis gives up on a command with "Reached the max retries per request limit ... Refer to
   * maxRetriesPerRequest" (or the command timeout passes first), which points at a setting; while the connection
   * is down, its own failure points at Redis.
   */
  #inWordsOfConnection(error: unknown): unknown {
    const connection = this.#connectionFailure;
    const gaveUp = (error as Error)?.name === 'MaxRetriesPerRequestError' || error instanceof RedisCommandTimeout;
    if (!gaveUp || !connection) return error;
    return new Error(`Redis cannot be reached (${connection.message}): is it running, and does the URL name the right host and port?`, {
      cause: error,
    });
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
