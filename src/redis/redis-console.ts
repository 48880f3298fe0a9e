/**
 * The console's operations on Redis (console-store.ts). Each listing filter is a sorted set whose members are
 * `<listedAt, 15 digits>:<payment id>`, all scored 0, so that ZREVRANGEBYLEX walks it newest first from a cursor's
 * member; a payment's members are moved between the sets by the script that writes its record (lua-scripts.ts,
 * whose `index` writes only for the version it was given, so an older writer cannot undo a newer one).
 * The keys (the listing sets, timelines, the audit log) are laid out in redis-keys.ts. `failing` is read from the
 * outbox itself and the records of the entries tried. An open payment whose record Redis expired (scratch) may stay
 * in the sets until a listing meets it; the listing then drops it, and counts may include it until then.
 */
import type { Redis } from 'ioredis';
import {
  type AuditEntry,
  type ConsoleFilter,
  CONSOLE_FILTERS,
  decodeCursor,
  encodeCursor,
  HISTORY_LIMIT,
  type HistoryEntry,
  listingOf,
  type PaymentPage,
  type PaymentQuery,
  zeroCounts,
} from '../proxy/infrastructure/console-store.js';
import type { PaymentRecord } from '../proxy/infrastructure/store.js';
import { newestContradiction } from '../proxy/ledger/contradiction-marks.js';
import { INDEX_PAYMENT, runScript } from './lua-scripts.js';
import { fromOutboxMember, type RedisKeys } from './redis-keys.js';

const member = (listedAt: number, id: string) => `${String(Math.max(0, Math.floor(listedAt))).padStart(15, '0')}:${id}`;
const placeOf = (m: string) => ({ listedAt: Number(m.slice(0, 15)), id: m.slice(16) });
/** How many outbox entries or stuck payments one query reads at most. */
const SCAN_LIMIT = 10_000;

/** Marks a payment contradicted as the ledger does (ledger/contradiction-marks.ts), through the store's own write. */
export type MarkContradicted = (paymentId: string, contradicted: { at: number; state: string }) => Promise<void>;

export class RedisConsole {
  #indexed: Promise<void> | undefined;

  constructor(
    private readonly redis: Redis,
    private readonly keys: RedisKeys,
    private readonly markContradicted: MarkContradicted,
  ) {}

  /**
   * Payments written by a release before the console's sets (a ledger brought forward) are in no set, so the console
   * listed and counted none of them, stuck ones included. Before its first listing each process makes sure they are
   * indexed: once per Redis (the console-indexed key records it), a SCAN of the payment hashes, each indexed for
   * its own version as a write would (two processes doing it at once write the same). The SQL stores do the same
   * in their schema migrations. Then, once per Redis too, the payments whose timeline noted a contradiction before
   * the record kept its mark are marked from their newest line, as the SQL stores' migration 4 does.
   */
  ensureIndexed(): Promise<void> {
    this.#indexed ??= this.#indexUnlisted()
      .then(() => this.#markNotedContradictions())
      .catch((error: unknown) => {
        this.#indexed = undefined;
        throw error;
      });
    return this.#indexed;
  }

  async #indexUnlisted(): Promise<void> {
    await this.#onceOver(this.keys.consoleIndexed(), this.keys.payment(''), async (key) => {
      const json = await this.redis.hget(key, 'record');
      if (json) await this.index(JSON.parse(json) as PaymentRecord);
    });
  }

  async #markNotedContradictions(): Promise<void> {
    const prefix = this.keys.history('');
    await this.#onceOver(this.keys.contradictionsMarked(), prefix, async (key) => {
      const newest = newestContradiction((await this.redis.lrange(key, 0, -1)).map((json) => JSON.parse(json) as HistoryEntry));
      if (newest) await this.markContradicted(key.slice(prefix.length), newest);
    });
  }

  /**
   * Runs `each` over every key starting with `prefix` (a SCAN, 500 at a time), unless the key `done` says it ran on
   * this Redis before; sets `done` once it has run through.
   */
  async #onceOver(done: string, prefix: string, each: (key: string) => Promise<void>): Promise<void> {
    if ((await this.redis.get(done)) !== null) return;
    const match = `${prefix.replace(/[*?[\]\\]/g, '\\$&')}*`;
    let cursor = '0';
    for (let round = 0; round < 1_000_000; round++) {
      const [next, keys] = await this.redis.scan(cursor, 'MATCH', match, 'COUNT', 500);
      for (const key of keys) await each(key);
      cursor = next;
      if (cursor === '0') break;
    }
    await this.redis.set(done, '1');
  }

  /** Moves the payment's listing members to where its record `version` puts it. */
  async index(record: PaymentRecord): Promise<void> {
    await runScript(this.redis, INDEX_PAYMENT, [this.keys.payment(record.view.id)], [record.version, ...this.indexArguments(record)]);
  }

  /**
   * The arguments of the scripts' `index` function after the version (lua-scripts.ts): each write of a payment
   * moves its listing members in the script that writes it.
   */
  indexArguments(record: PaymentRecord): string[] {
    const { listedAt, expiresAt, tags } = listingOf(record);
    return [
      this.keys.prefix,
      member(listedAt, record.view.id),
      JSON.stringify(tags),
      record.view.orderId,
      expiresAt === undefined ? '' : String(expiresAt),
    ];
  }

  async list(query: PaymentQuery): Promise<PaymentPage> {
    const after = decodeCursor(query.cursor);
    await this.ensureIndexed();
    const from = after ? member(after.listedAt, after.id) : undefined;
    const batch = query.limit + 1;
    // The members after `from`, newest first, `batch` at a time: read from a set a page at a time, or (stuck,
    // failing) from a list gathered at once.
    let nextMembers: (from: string | undefined) => Promise<{ walked: string[]; listed: string[] }>;
    if (query.filter === 'stuck' || query.filter === 'failing') {
      let all = query.filter === 'stuck' ? await this.#stuckMembers(query.now) : await this.#failingMembers();
      if (query.orderId !== undefined) all = await this.#ofOrder(all, query.orderId);
      all.sort().reverse();
      nextMembers = async (start) => {
        const walked = all.filter((m) => start === undefined || m < start).slice(0, batch);
        return { walked, listed: walked };
      };
    } else {
      const key = query.orderId === undefined ? this.keys.list(query.filter) : this.keys.listOrder(query.orderId);
      nextMembers = async (start) => {
        const walked = await this.redis.zrevrangebylex(key, start === undefined ? '+' : `(${start}`, '-', 'LIMIT', 0, batch);
        if (query.orderId === undefined || query.filter === 'all') return { walked, listed: walked };
        // One order's set, narrowed to the filter: members outside it still move the walk on.
        const inFilter = await this.#inSet(this.keys.list(query.filter), walked);
        return { walked, listed: walked.filter((_, i) => inFilter[i]) };
      };
    }
    const payments: PaymentRecord[] = [];
    let last: string | undefined;
    let start = from;
    for (let round = 0; round < 1_000; round++) {
      const { walked, listed } = await nextMembers(start);
      if (walked.length === 0) break;
      start = walked[walked.length - 1];
      const records = await this.#records(listed.map((m) => placeOf(m).id));
      for (let j = 0; j < listed.length; j++) {
        const record = records[j];
        if (!record) {
          await this.#forget(listed[j]!);
          continue;
        }
        if (payments.length === query.limit) {
          const place = placeOf(last!);
          return { payments, next: encodeCursor(place.listedAt, place.id) };
        }
        payments.push(record);
        last = listed[j];
      }
      if (walked.length < batch) break;
    }
    return { payments };
  }

  async counts(now: number): Promise<Record<ConsoleFilter, number>> {
    await this.ensureIndexed();
    const counts = zeroCounts();
    const pipeline = this.redis.pipeline();
    const indexed = CONSOLE_FILTERS.filter((f) => f !== 'stuck' && f !== 'failing');
    for (const filter of indexed) pipeline.zcard(this.keys.list(filter));
    pipeline.zcount(this.keys.openExpiry(), '-inf', `(${now}`);
    const replies = (await pipeline.exec()) ?? [];
    indexed.forEach((filter, i) => {
      counts[filter] = Number(replies[i]?.[1] ?? 0);
    });
    counts.stuck = Number(replies[indexed.length]?.[1] ?? 0);
    counts.failing = (await this.#failingMembers()).length;
    return counts;
  }

  async appendHistory(paymentId: string, entry: HistoryEntry): Promise<void> {
    const key = this.keys.history(paymentId);
    await this.redis.multi().rpush(key, JSON.stringify(entry)).ltrim(key, -HISTORY_LIMIT, -1).exec();
  }

  async history(paymentId: string): Promise<HistoryEntry[]> {
    return (await this.redis.lrange(this.keys.history(paymentId), 0, -1)).map((json) => JSON.parse(json) as HistoryEntry);
  }

  async appendAudit(entry: AuditEntry): Promise<void> {
    const json = JSON.stringify(entry);
    const multi = this.redis.multi().lpush(this.keys.audit(), json);
    if (entry.paymentId !== undefined) multi.lpush(this.keys.audit(entry.paymentId), json);
    await multi.exec();
  }

  async audit(paymentId: string | undefined, limit: number): Promise<AuditEntry[]> {
    return (await this.redis.lrange(this.keys.audit(paymentId), 0, Math.max(0, limit) - 1)).map((json) => JSON.parse(json) as AuditEntry);
  }

  async #records(ids: string[]): Promise<(PaymentRecord | undefined)[]> {
    if (ids.length === 0) return [];
    const pipeline = this.redis.pipeline();
    for (const id of ids) pipeline.hget(this.keys.payment(id), 'record');
    const replies = (await pipeline.exec()) ?? [];
    return replies.map(([, json]) => (typeof json === 'string' ? (JSON.parse(json) as PaymentRecord) : undefined));
  }

  async #stuckMembers(now: number): Promise<string[]> {
    return this.redis.zrangebyscore(this.keys.openExpiry(), '-inf', `(${now}`, 'LIMIT', 0, SCAN_LIMIT);
  }

  /**
   * The listing members of payments whose current state's announcement was tried and not taken: read off the
   * outbox, then the records of those tried. A state the payment has left waits there for its retry, which skips
   * it without calling the hook (outbox.ts): it fails nothing any more.
   */
  async #failingMembers(): Promise<string[]> {
    const entries = await this.redis.zrange(this.keys.outbox(), 0, String(SCAN_LIMIT - 1));
    const pairs = entries.map((entry) => fromOutboxMember(entry));
    const attempts = this.redis.pipeline();
    for (const [paymentId, state] of pairs) attempts.hget(this.keys.outboxEntry(paymentId, state), 'attempts');
    const tried = ((await attempts.exec()) ?? []).flatMap(([, n], i) => (Number(n ?? 0) > 0 ? [pairs[i]!] : []));
    const records = this.redis.pipeline();
    for (const [paymentId] of tried) records.hmget(this.keys.payment(paymentId), 'lm', 'record');
    const replies = (await records.exec()) ?? [];
    const found = new Set<string>();
    tried.forEach(([, state], i) => {
      const [listed, json] = (replies[i]?.[1] ?? []) as (string | null)[];
      const current = typeof json === 'string' ? (JSON.parse(json) as PaymentRecord).view.state : undefined;
      if (typeof listed === 'string' && current === state) found.add(listed);
    });
    return [...found];
  }

  async #ofOrder(members: string[], orderId: string): Promise<string[]> {
    const inOrder = await this.#inSet(this.keys.listOrder(orderId), members);
    return members.filter((_, i) => inOrder[i]);
  }

  async #inSet(key: string, members: string[]): Promise<boolean[]> {
    if (members.length === 0) return [];
    const pipeline = this.redis.pipeline();
    for (const m of members) pipeline.zscore(key, m);
    return ((await pipeline.exec()) ?? []).map(([, score]) => score !== null);
  }

  /** A member whose record Redis expired leaves every filter's set. */
  async #forget(m: string): Promise<void> {
    const pipeline = this.redis.pipeline();
    for (const filter of CONSOLE_FILTERS) pipeline.zrem(this.keys.list(filter), m);
    pipeline.zrem(this.keys.openExpiry(), m);
    await pipeline.exec();
  }
}
