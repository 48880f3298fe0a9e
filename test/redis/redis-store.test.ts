import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { Redis } from 'ioredis';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { createRedisStore, type RedisStore, type RedisStoreOptions } from '../../src/redis/index.js';
import { RedisConsole } from '../../src/redis/redis-console.js';
import { markContradicted } from '../../src/proxy/ledger/contradiction-marks.js';
import { ManualClock } from '../../src/shared/manual-clock.js';
import { listed, writeNotedContradictions } from '../proxy/infrastructure/console-store-contract.js';
import { describeSharedStoreContract } from '../proxy/infrastructure/shared-store-contract.js';
import { describeStoreContract, record } from '../proxy/infrastructure/store-contract.js';
import { startRedisServer, type RedisServer } from './redis-server-harness.js';

let server: RedisServer;
let admin: Redis;
const opened: RedisStore[] = [];

beforeAll(async () => {
  server = await startRedisServer();
  admin = new Redis(server.url);
});
afterEach(async () => {
  await Promise.all(opened.splice(0).map((store) => store.close()));
});
afterAll(async () => {
  await admin?.quit();
  await server?.stop();
});

const freshPrefix = () => `test-${Math.random().toString(36).slice(2)}:`;
const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** A store on the test server; stores made with the same prefix are like two proxy processes sharing Redis. */
function open(keyPrefix: string, options: RedisStoreOptions = {}): RedisStore {
  const store = createRedisStore({ url: server.url, keyPrefix, ...options });
  opened.push(store);
  return store;
}

async function numberOfSubscribers(channel: string): Promise<number> {
  const reply = (await admin.pubsub('NUMSUB', channel)) as [string, number];
  return Number(reply[1]);
}

describeStoreContract('RedisStore', () => {
  const store = open(freshPrefix());
  return { store, wait: sleep, close: () => store.close() };
});

describeSharedStoreContract('RedisStore', (prefix) => open(`${prefix}:`));

describe('RedisStore across instances', () => {
  it("delivers one instance's publish to the other's subscribers over one Redis subscription, dropped with the last", async () => {
    const prefix = freshPrefix();
    const [a, b] = [open(prefix), open(prefix)];
    const got: string[][] = [[], [], []];
    const stops = await Promise.all(got.map((list) => b.subscribe('payment:p1', (m) => list.push(m))));
    const channel = `${prefix}events:payment:p1`;
    expect(await numberOfSubscribers(channel)).toBe(1);
    await a.publish('payment:p1', 'one');
    for (let i = 0; i < 200 && got.some((list) => list.length < 1); i++) await sleep(5);
    expect(got).toEqual([['one'], ['one'], ['one']]);

    await stops[0]!();
    await stops[1]!();
    expect(await numberOfSubscribers(channel)).toBe(1);
    await a.publish('payment:p1', 'two');
    for (let i = 0; i < 200 && got[2]!.length < 2; i++) await sleep(5);
    expect(got).toEqual([['one'], ['one'], ['one', 'two']]);
    await stops[2]!();
    expect(await numberOfSubscribers(channel)).toBe(0);
    expect(b.subscriptionCount).toBe(0);
  });
});

describe('RedisStore keys', () => {
  it('expires scratch (leases, counters, open payments, unpaid orders) and keeps what must never repeat for good', async () => {
    const prefix = freshPrefix();
    const store = open(prefix, { ttlMs: 60_000 });
    await store.claim('order:A-1', 'owner', 5_000);
    await store.putOrder({ orderId: 'A-1', payments: [{ id: 'p1', method: 'upi' }] });
    await store.putOrder({ orderId: 'A-2', payments: [{ id: 'p2', method: 'upi' }], paidBy: 'p2' });
    await store.putPayment(record('p1', 1), 0);
    const paid = record('p2', 1, 'finished');
    await store.putPayment({ ...paid, view: { ...paid.view, outcome: 'paid', final: true } }, 0);
    await store.enqueueAnnouncement('p2', 'finished', 0);
    await store.commitAnnouncement('p2', 'finished');
    await store.count('rate:create:127.0.0.1:1', 1, 2_000);
    const ttl = async (key: string) => admin.pttl(prefix + key);
    for (const key of ['order:A-1', 'payment:p1']) {
      expect(await ttl(key)).toBeGreaterThan(50_000);
      expect(await ttl(key)).toBeLessThanOrEqual(60_000);
    }
    expect(await ttl('lease:order:A-1')).toBeGreaterThan(0);
    expect(await ttl('lease:order:A-1')).toBeLessThanOrEqual(5_000);
    expect(await ttl('count:rate:create:127.0.0.1:1')).toBeGreaterThan(0);
    expect(await ttl('count:rate:create:127.0.0.1:1')).toBeLessThanOrEqual(2_000);
    // -1: no expiry.
    for (const key of ['order:A-2', 'payment:p2', 'announced:p2:finished']) expect(await ttl(key)).toBe(-1);
  });

  it('keeps an open payment that reconciliation still follows for its time to live after its follow window ends', async () => {
    const prefix = freshPrefix();
    const store = open(prefix, { ttlMs: 60_000 });
    // A payment that may be paid for days (a bank transfer): followed for 10 minutes more than the time to live.
    await store.putPayment({ ...record('p1', 1), followUntil: Date.now() + 10 * 60_000 }, 0);
    expect(await admin.pttl(`${prefix}payment:p1`)).toBeGreaterThan(10 * 60_000);
    expect(await admin.pttl(`${prefix}payment:p1`)).toBeLessThanOrEqual(11 * 60_000);
  });

  it('lists past open payments whose records Redis expired, and drops them from the filters it meets them in', async () => {
    const prefix = freshPrefix();
    const store = open(prefix);
    for (let i = 0; i < 6; i++) await store.putPayment(listed(`p${i}`, 1_000 + i), 0);
    for (const id of ['p5', 'p4', 'p2']) await admin.del(`${prefix}payment:${id}`); // as an expiry would
    const first = await store.listPayments({ filter: 'open', limit: 2, now: 0 });
    expect(first.payments.map((p) => p.view.id)).toEqual(['p3', 'p1']);
    const second = await store.listPayments({ filter: 'open', limit: 2, now: 0, cursor: first.next! });
    expect(second.payments.map((p) => p.view.id)).toEqual(['p0']);
    expect(second.next).toBeUndefined();
    expect((await store.countPayments(0)).open).toBe(3);
  });

  it('refuses a url that is not redis:// or rediss://, without echoing it', () => {
    expect(() => createRedisStore({ url: 'localhost:6379' })).toThrow(/redis:\/\/ or rediss:\/\//);
    expect(() => createRedisStore({ url: 'http://user:hunter2@127.0.0.1' })).toThrow(
      expect.objectContaining({ message: expect.not.stringContaining('hunter2') }),
    );
    expect(() => createRedisStore({ url: '' })).toThrow(/missing url/);
  });

  it('refuses an option it does not know, naming it and those it takes', () => {
    // ioredis's name for the command timeout, given beside the store's own options: it kept the 2 s default.
    expect(() => createRedisStore({ url: server.url, commandTimeout: 500 } as never)).toThrow(
      /createRedisStore: options has no commandTimeout; it takes .*\bredisOptions\b.*\bcommandTimeoutMs\b/,
    );
    expect(() => createRedisStore({ url: server.url, keyprefix: 'shop-a:' } as never)).toThrow(/options has no keyprefix/);
  });

  it('refuses a commandTimeoutMs that is not a positive number of milliseconds a timer can hold', () => {
    for (const commandTimeoutMs of [0, -1, Number.NaN, Number.POSITIVE_INFINITY, 2 ** 31, '500' as unknown as number]) {
      expect(() => createRedisStore({ url: 'redis://127.0.0.1:1', commandTimeoutMs })).toThrow(
        /commandTimeoutMs must be a positive number/,
      );
    }
  });
});

describe('RedisStore lifecycle', () => {
  it('lets the process exit once closed, subscriber connection included', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'redis-store-exit-'));
    try {
      const outfile = join(dir, 'child.mjs');
      // The store as the package ships it, bundled with ioredis, run by a plain node process.
      await build({
        stdin: {
          contents: `
            import { createRedisStore } from './src/redis/index.ts';
            const store = createRedisStore({ url: process.env.TEST_REDIS_URL, keyPrefix: 'exit-test:' });
            const stop = await store.subscribe('c', () => console.log('message'));
            await store.publish('c', 'hello');
            await new Promise((resolve) => setTimeout(resolve, 100));
            await stop();
            await store.close();
            console.log('closed');`,
          resolveDir: fileURLToPath(new URL('../..', import.meta.url)),
          loader: 'ts',
        },
        bundle: true,
        platform: 'node',
        format: 'esm',
        outfile,
        // ioredis is CommonJS and requires Node's built-ins; an ES module bundle needs a require for that.
        banner: { js: "import { createRequire } from 'node:module'; const require = createRequire(import.meta.url);" },
        logLevel: 'silent',
      });
      const child = spawn(process.execPath, [outfile], {
        env: { ...process.env, TEST_REDIS_URL: server.url },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let output = '';
      child.stdout.on('data', (chunk) => (output += chunk));
      child.stderr.on('data', (chunk) => (output += chunk));
      const code = await new Promise<number | string>((resolve) => {
        const timer = setTimeout(() => {
          child.kill('SIGKILL');
          resolve('still running after 8 s');
        }, 8_000);
        child.once('exit', (exitCode) => {
          clearTimeout(timer);
          resolve(exitCode ?? 'killed');
        });
      });
      expect({ code, output: output.trim() }).toEqual({ code: 0, output: 'message\nclosed' });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('closes promptly even when Redis cannot be reached, and reports the error', async () => {
    const errors: Error[] = [];
    const store = createRedisStore({ url: 'redis://127.0.0.1:1', closeTimeoutMs: 300, onError: (error) => errors.push(error) });
    for (let i = 0; i < 100 && errors.length === 0; i++) await sleep(10);
    const started = Date.now();
    await store.close();
    // Without the close timeout ioredis keeps reconnecting for good; a generous bound proves it gives up.
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(errors[0]?.message).toMatch(/ECONNREFUSED/);
  });
});

describe('RedisStore on a ledger written before the console', () => {
  it("lists and counts the payments it already held, as the SQL stores' migration does", async () => {
    // The keys an earlier release wrote: the payment hashes and the follow index, none of the console's sets.
    const prefix = freshPrefix();
    const paid = { ...record('old-paid', 2, 'finished'), listedAt: 1_000 };
    paid.view = { ...paid.view, orderId: 'O-1', outcome: 'paid', final: true, expiresAt: '2026-01-15T10:15:00.000Z' };
    const open1 = { ...record('old-open', 1), listedAt: 2_000 };
    open1.view = { ...open1.view, orderId: 'O-2', expiresAt: '2026-01-15T10:15:00.000Z' };
    for (const r of [paid, open1])
      await admin.hset(`${prefix}payment:${r.view.id}`, { version: String(r.version), record: JSON.stringify(r) });
    await admin.zadd(`${prefix}followed`, 0, 'old-open');

    const store = open(prefix);
    const now = Date.parse('2026-01-16T00:00:00Z');
    const ids = async (query: Partial<Parameters<RedisStore['listPayments']>[0]>) =>
      (await store.listPayments({ filter: 'all', limit: 10, now, ...query })).payments.map((p) => p.view.id);
    expect(await ids({})).toEqual(['old-open', 'old-paid']);
    const counts = await store.countPayments(now);
    expect(counts).toMatchObject({ all: 2, paid: 1, open: 1, stuck: 1 });
    expect(await ids({ orderId: 'O-1' })).toEqual(['old-paid']);
    expect(await ids({ filter: 'stuck' })).toEqual(['old-open']);
    // Finished at the service after it was recorded otherwise: a contradiction to look into, listed and counted.
    await markContradicted({ store, clock: new ManualClock() }, 'old-paid', 'dispute');
    expect(await ids({ filter: 'contradicted' })).toEqual(['old-paid']);
    expect(await store.countPayments(now)).toMatchObject({ paid: 1, contradicted: 1, resolved: 0 });
  });
});

describe('RedisStore on a ledger written before the contradiction marks', () => {
  it('marks, on its first listing, each payment whose timeline noted a contradiction, as the SQL stores migrate', async () => {
    // What the release before wrote: payments indexed for the console, timelines, and no mark on any record.
    const prefix = freshPrefix();
    const before = open(prefix);
    await writeNotedContradictions(before);
    await admin.set(`${prefix}console-indexed`, '1');

    const store = open(prefix);
    const page = await store.listPayments({ filter: 'contradicted', limit: 10, now: 0 });
    expect(page.payments.map((p) => [p.view.id, p.contradicted, p.version])).toEqual([['late-money', { at: 900, state: 'finished' }, 2]]);
    expect(await store.countPayments(0)).toMatchObject({ expired: 2, contradicted: 1, resolved: 0 });
    expect((await store.getPayment('quiet'))!.contradicted).toBeUndefined();
    // An instance started later leaves the mark as it is.
    await open(prefix).listPayments({ filter: 'all', limit: 1, now: 0 });
    expect((await store.getPayment('late-money'))!.version).toBe(2);
  });
});

describe('RedisStore killed right after it wrote a payment', () => {
  it("leaves the console's listing as the write put it: a payment paid then is listed paid, not open", async () => {
    const prefix = freshPrefix();
    const store = open(prefix);
    const now = Date.parse('2026-01-16T00:00:00Z');
    const open1 = { ...record('p-killed', 1), listedAt: 1_000 };
    open1.view = { ...open1.view, expiresAt: '2026-01-15T10:15:00.000Z' };
    expect(await store.putPaymentAndEnqueue(open1, 0, 0)).toBe(true);
    expect((await store.listPayments({ filter: 'open', limit: 10, now })).payments.map((p) => p.view.id)).toEqual(['p-killed']);

    // The process dies before anything it would do after the write: a listing step of its own never runs.
    const died = vi.spyOn(RedisConsole.prototype, 'index').mockRejectedValue(new Error('the process died here'));
    try {
      const paid = { ...open1, version: 2 };
      paid.view = { ...open1.view, state: 'finished', outcome: 'paid', final: true };
      await store.putPaymentAndEnqueue(paid, 1, 0).catch(() => false);
    } finally {
      died.mockRestore();
    }

    const next = open(prefix); // another instance, reading the same Redis
    expect((await next.getPayment('p-killed'))?.view.outcome).toBe('paid');
    const listed = async (filter: 'open' | 'paid') => (await next.listPayments({ filter, limit: 10, now })).payments.map((p) => p.view.id);
    expect({ paid: await listed('paid'), open: await listed('open') }).toEqual({ paid: ['p-killed'], open: [] });
    expect(await next.countPayments(now)).toMatchObject({ paid: 1, open: 0, stuck: 0 });
  });
});
