import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/shared/manual-clock.js';
import { createSqliteStore } from '../../src/sqlite/index.js';
import { openSqlite } from '../../src/sqlite/sqlite-driver.js';
import { SqliteStore } from '../../src/sqlite/sqlite-store.js';
import { listed, writeNotedContradictions } from '../proxy/infrastructure/console-store-contract.js';
import { describeStoreContract, record } from '../proxy/infrastructure/store-contract.js';
import { markContradicted } from '../../src/proxy/ledger/contradiction-marks.js';
import { markRefunded } from '../../src/proxy/ledger/refund-marks.js';
import { FIRST_SCHEMA } from './support/first-schema.js';

const dir = mkdtempSync(join(tmpdir(), 'payin-sqlite-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let n = 0;
const freshPath = () => join(dir, `store-${++n}.db`);

describeStoreContract('SqliteStore', (clock) => {
  const store = createSqliteStore({ path: freshPath(), clock });
  return { store, wait: (ms) => clock.advance(ms), close: () => store.close() };
});

describe('SqliteStore scratch', () => {
  it('keeps an open payment that reconciliation still follows, however long since its last write', async () => {
    const clock = new ManualClock();
    const store = createSqliteStore({ path: freshPath(), clock, ttlMs: 60_000 });
    // A payment that may be paid for days (a bank transfer), written once and unchanged since.
    await store.putPayment({ ...record('followed', 1), followUntil: clock.now() + 60 * 60_000 }, 0);
    await store.putPayment(record('abandoned', 1), 0);
    await clock.advance(2 * 60_000);
    await store.putOrder({ orderId: 'later', payments: [] }); // prunes, at most once a minute
    expect(await store.getPayment('abandoned')).toBeUndefined();
    expect(await store.getPayment('followed')).toBeDefined();
    expect(await store.followedPayments(10)).toEqual(['followed']);
    await store.close();
  });

  it("keeps a console session's counter while 100,000 clients' counts of a minute come and expire", async () => {
    const clock = new ManualClock();
    const store = createSqliteStore({ path: freshPath(), clock });
    await store.count('console-session:s', 1, 12 * 60 * 60_000);
    // Its counters live in the process, 100,000 at most: 2,000 new clients a minute for an hour fill them.
    for (let minute = 0; minute < 60; minute++) {
      for (let i = 0; i < 2_000; i++) await store.count(`rate:status:client:${minute}-${i}:${minute}`, 1, 60_000);
      await clock.advance(61_000);
    }
    expect(await store.count('console-session:s', 0, 12 * 60 * 60_000)).toBe(1);
    await store.close();
  });
});

describe('SqliteStore on a full disk', () => {
  it('says the disk is full, writes nothing of the payment or its announcement, and writes again once there is room', async () => {
    const db = openSqlite(freshPath());
    const store = new SqliteStore(db);
    // The file may grow by one page more: what a disk with almost no room left does to it.
    db.exec(`PRAGMA max_page_count = ${Number(db.prepare('PRAGMA page_count').get()!.page_count) + 1}`);
    const large = (id: string) => ({ ...record(id, 1), priced: { amount: 'x'.repeat(3_000), currency: 'INR' } });
    let refused: { id: string; message: string } | undefined;
    for (let i = 0; i < 10 && !refused; i++) {
      await store.putPaymentAndEnqueue(large(`p${i}`), 0, 0).catch((error: Error) => {
        refused = { id: `p${i}`, message: error.message };
      });
    }
    // The operator reads the cause, not "cannot rollback - no transaction is active".
    expect(refused?.message).toMatch(/disk is full/);
    expect(await store.getPayment(refused!.id)).toBeUndefined();
    expect((await store.dueAnnouncements(0, 20)).map((entry) => entry.paymentId)).not.toContain(refused!.id);

    db.exec('PRAGMA max_page_count = 1000000');
    expect(await store.putPaymentAndEnqueue(large('after'), 0, 0)).toBe(true);
    expect((await store.dueAnnouncements(0, 20)).some((entry) => entry.paymentId === 'after')).toBe(true);
    await store.close();
  });
});

describe('SqliteStore across a restart', () => {
  it('keeps payments, paid orders, the outbox and announced states when the file is closed and opened again', async () => {
    const path = freshPath();
    const clock = new ManualClock();
    const before = createSqliteStore({ path, clock });
    await before.putPayment({ ...record('p1', 1), followUntil: 5_000 }, 0);
    await before.putOrder({ orderId: 'A-1', payments: [{ id: 'p1', method: 'upi' }], paidBy: 'p1' });
    await before.enqueueAnnouncement('p1', 'pending', 0);
    await before.enqueueAnnouncement('p1', 'finished', 0);
    await before.claimAnnouncement('p1', 'finished', 60_000);
    await before.commitAnnouncement('p1', 'finished');
    await before.close();

    const after = createSqliteStore({ path, clock });
    expect(await after.getPayment('p1')).toEqual({ ...record('p1', 1), followUntil: 5_000 });
    expect((await after.getOrder('A-1'))?.paidBy).toBe('p1');
    expect(await after.followedPayments(10)).toEqual(['p1']);
    expect(await after.dueAnnouncements(clock.now(), 10)).toEqual([{ paymentId: 'p1', state: 'pending', attempts: 0, dueAt: 0 }]);
    expect(await after.wasAnnounced('p1', 'finished')).toBe(true);
    expect(await after.enqueueAnnouncement('p1', 'finished', 0)).toBe(false);
    await after.close();
  });

  it('keeps a refund mark when the file is closed and opened again, and walks each refund filter by its own index', async (test) => {
    const path = freshPath();
    const clock = new ManualClock();
    const before = createSqliteStore({ path, clock });
    await before.putPayment(listed('first', 10, { outcome: 'paid', orderId: 'A-1', finalAt: 20 }), 0);
    await before.putPayment(listed('second', 11, { outcome: 'paid', orderId: 'A-1', secondPaymentOf: 'first', finalAt: 20 }), 0);
    expect(await markRefunded({ store: before, clock }, 'second', { operator: 'ana', reference: 're_1' })).toHaveProperty('marked');
    await before.close();

    const after = createSqliteStore({ path, clock });
    expect((await after.getPayment('second'))?.refunded).toEqual({ at: clock.now(), operator: 'ana', reference: 're_1' });
    expect((await after.listPayments({ filter: 'refunded', limit: 10, now: 0 })).payments.map((p) => p.view.id)).toEqual(['second']);
    expect((await after.listPayments({ filter: 'second', limit: 10, now: 0 })).payments).toEqual([]);
    expect(await markRefunded({ store: after, clock }, 'second', { operator: 'bo' })).toEqual({
      already: expect.objectContaining({ operator: 'ana' }),
    });
    await after.close();

    // With 100,000 payments a filter that scanned the table would cost a page its millisecond (bench/console-list.mjs).
    if (process.versions.bun || process.versions.deno) return test.skip();
    const db = new Database(path, { readonly: true });
    const plan = (where: string) =>
      db
        .prepare(`EXPLAIN QUERY PLAN SELECT id, listed_at, record FROM payments WHERE ${where} ORDER BY listed_at DESC, id DESC LIMIT 51`)
        .all()
        .map((row) => (row as { detail: string }).detail)
        .join('; ');
    expect(plan('second = 2')).toMatch(/USING INDEX payments_refunded/);
    expect(plan('second = 1')).toMatch(/USING INDEX payments_second/);
    db.close();
  });

  it('prunes open payments and unpaid orders after their time to live, and keeps final payments and paid orders', async () => {
    const clock = new ManualClock();
    const store = createSqliteStore({ path: freshPath(), clock, ttlMs: 1_000 });
    const final = record('done', 1, 'finished');
    await store.putPayment({ ...final, view: { ...final.view, outcome: 'paid', final: true } }, 0);
    await store.putPayment(record('open', 1), 0);
    await store.putOrder({ orderId: 'paid', payments: [], paidBy: 'done' });
    await store.putOrder({ orderId: 'unpaid', payments: [] });
    await clock.advance(2 * 60_000);
    await store.putPayment(record('later', 1), 0); // a write runs the prune
    expect(await store.getPayment('done')).toBeDefined();
    expect(await store.getOrder('paid')).toBeDefined();
    expect(await store.getPayment('open')).toBeUndefined();
    expect(await store.getOrder('unpaid')).toBeUndefined();
    await store.close();
  });

  it('brings a file of the first schema forward: its payments are listed and filtered by the console', async (test) => {
    // The old file is written with better-sqlite3, which Bun and Deno cannot load.
    if (process.versions.bun || process.versions.deno) return test.skip();
    const path = freshPath();
    const old = new Database(path);
    old.exec(FIRST_SCHEMA);
    old.pragma('user_version = 1');
    const insert = old.prepare('INSERT INTO payments (id, version, record, final, follow_until, updated_at) VALUES (?, 1, ?, ?, NULL, ?)');
    const paid = { ...record('old-paid', 1, 'finished'), updatedAt: 20 };
    paid.view = { ...paid.view, outcome: 'paid', final: true, expiresAt: '2026-01-01T00:00:00Z' };
    const open = { ...record('old-open', 1), updatedAt: 10 };
    open.view = { ...open.view, expiresAt: '2026-01-01T00:15:00.000000Z' };
    insert.run('old-paid', JSON.stringify(paid), 1, 20);
    insert.run('old-open', JSON.stringify(open), 0, 10);
    old.close();
    const store = createSqliteStore({ path, clock: new ManualClock() });
    const ids = async (filter: 'all' | 'paid' | 'open' | 'stuck' | 'contradicted') =>
      (await store.listPayments({ filter, limit: 10, now: Date.UTC(2026, 0, 1, 1) })).payments.map((p) => p.view.id);
    expect(await ids('all')).toEqual(['old-paid', 'old-open']);
    expect(await ids('paid')).toEqual(['old-paid']);
    expect(await ids('stuck')).toEqual(['old-open']);
    expect((await store.listPayments({ filter: 'all', orderId: 'A-1', limit: 10, now: 0 })).payments).toHaveLength(2);
    // Disputed at the service since: a contradiction to look into (the column of the latest migration).
    await markContradicted({ store, clock: new ManualClock() }, 'old-paid', 'dispute');
    expect(await ids('contradicted')).toEqual(['old-paid']);
    expect(await store.countPayments(0)).toMatchObject({ paid: 1, contradicted: 1, resolved: 0 });
    await store.close();
  });

  it('brings a payment of the first schema forward with the listing the console computes: paid after its expiry is late', async (test) => {
    if (process.versions.bun || process.versions.deno) return test.skip();
    const path = freshPath();
    const old = new Database(path);
    old.exec(FIRST_SCHEMA);
    old.pragma('user_version = 1');
    const late = { ...record('old-late', 1, 'finished'), updatedAt: 30, finalAt: Date.UTC(2026, 0, 1, 0, 16) };
    // An expiry with an offset: 00:15 UTC written as 05:45 in India.
    late.view = { ...late.view, outcome: 'paid', final: true, expiresAt: '2026-01-01T05:45:00+05:30' };
    old
      .prepare('INSERT INTO payments (id, version, record, final, follow_until, updated_at) VALUES (?, 1, ?, 1, NULL, 30)')
      .run('old-late', JSON.stringify(late));
    old.close();
    const store = createSqliteStore({ path, clock: new ManualClock() });
    const page = await store.listPayments({ filter: 'late', limit: 10, now: Date.UTC(2026, 0, 1, 1) });
    expect(page.payments.map((p) => p.view.id)).toEqual(['old-late']);
    await store.close();
  });

  it('brings a file of the schema before the contradiction marks forward: a contradiction its timeline noted is listed under contradicted', async (test) => {
    if (process.versions.bun || process.versions.deno) return test.skip();
    const path = freshPath();
    const before = createSqliteStore({ path, clock: new ManualClock() });
    await writeNotedContradictions(before);
    await before.close();
    // What the release before wrote: its schema (3) had no contradicted column, and no payment a mark.
    const old = new Database(path);
    old.exec('DROP INDEX payments_contradicted; DROP INDEX payments_resolved; ALTER TABLE payments DROP COLUMN contradicted;');
    old.pragma('user_version = 3');
    old.close();

    const store = createSqliteStore({ path, clock: new ManualClock() });
    const page = await store.listPayments({ filter: 'contradicted', limit: 10, now: 0 });
    expect(page.payments.map((p) => [p.view.id, p.contradicted, p.version])).toEqual([['late-money', { at: 900, state: 'finished' }, 2]]);
    expect(await store.countPayments(0)).toMatchObject({ expired: 2, contradicted: 1, resolved: 0 });
    expect((await store.getPayment('quiet'))!.contradicted).toBeUndefined();
    await store.close();
  });

  it("runs on this runtime's own SQLite where it has one: bun:sqlite on Bun, node:sqlite on Deno and Node 22.5+", async () => {
    const store = createSqliteStore({ path: ':memory:' });
    const versions = process.versions as { bun?: string; deno?: string; node: string };
    const [major = 0, minor = 0] = versions.node.split('.').map(Number);
    const expected = versions.bun
      ? 'bun:sqlite'
      : versions.deno || major > 22 || (major === 22 && minor >= 13)
        ? 'node:sqlite'
        : 'better-sqlite3';
    expect(store.driver).toBe(expected);
    // The runtime test (runtimes.test.ts) reads this line to know which SQLite the suite ran on.
    console.log(`sqlite driver: ${store.driver}`);
    await store.close();
  });

  it('runs on better-sqlite3 when asked, and reads a file another driver wrote', async (test) => {
    // Bun and Deno cannot load better-sqlite3's kind of native addon; they have their own SQLite.
    if (process.versions.bun || process.versions.deno) return test.skip();
    const path = freshPath();
    const first = createSqliteStore({ path });
    await first.putPayment(record('p1', 1), 0);
    await first.close();
    const second = createSqliteStore({ path, driver: 'better-sqlite3' });
    expect(await second.getPayment('p1')).toEqual(record('p1', 1));
    await second.close();
  });

  it('refuses a missing path with the fix in the message', () => {
    expect(() => createSqliteStore({ path: '' })).toThrow(/missing path/);
  });

  it('refuses an option it does not know, naming it and those it takes', () => {
    // Misspelt, the time to live stayed at its default of 24 hours.
    expect(() => createSqliteStore({ path: ':memory:', ttl: 60_000 } as never)).toThrow(
      /createSqliteStore: options has no ttl; it takes .*\bttlMs\b/,
    );
  });
});
