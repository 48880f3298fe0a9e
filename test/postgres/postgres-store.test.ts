import postgres from 'postgres';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createPostgresStore, PostgresStore, PostgresStoreError, type PostgresStoreOptions } from '../../src/postgres/index.js';
import { describeSharedStoreContract } from '../proxy/infrastructure/shared-store-contract.js';
import { listed } from '../proxy/infrastructure/console-store-contract.js';
import { describeStoreContract, record } from '../proxy/infrastructure/store-contract.js';
import { usePostgresServer } from './postgres-server-harness.js';

const server = usePostgresServer();
let admin: postgres.Sql;
const opened: PostgresStore[] = [];

beforeAll(async () => {
  admin = postgres(server.url, { max: 1, onnotice: () => {} });
});
afterEach(async () => {
  await Promise.all(opened.splice(0).map((store) => store.close()));
});
afterAll(async () => {
  await admin?.end();
});

const freshSchema = () => `test_${Math.random().toString(36).slice(2)}`;
const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** A store on the test server; stores made with the same schema are like two proxy processes sharing a database. */
function open(schema: string, options: PostgresStoreOptions = {}): PostgresStore {
  const store = createPostgresStore({ url: server.url, schema, max: 4, ...options });
  opened.push(store);
  return store;
}

describeStoreContract('PostgresStore', () => {
  const store = open(freshSchema());
  return { store, wait: sleep, close: () => store.close() };
});

describeSharedStoreContract('PostgresStore', (schema) => open(schema));

describe('PostgresStore across instances', () => {
  it("delivers one instance's publish to the other's subscribers", async () => {
    const schema = freshSchema();
    const [a, b] = [open(schema), open(schema)];
    const got: string[] = [];
    const stop = await b.subscribe('payment:p1', (m) => got.push(m));
    await a.publish('payment:p1', 'one');
    await a.publish('payment:p2', 'not for p1');
    for (let i = 0; i < 200 && got.length < 1; i++) await sleep(5);
    await stop();
    expect(got).toEqual(['one']);
    expect(b.subscriptionCount).toBe(0);
  });
  it('delivers a message longer than a NOTIFY may carry (8000 bytes), whole, as the proxy publishes a large payment', async () => {
    const schema = freshSchema();
    const [a, b] = [open(schema), open(schema)];
    // Quotes, backslashes, Cyrillic, a character outside the BMP and a control character: each takes more bytes on
    // the wire than it counts in characters.
    const large = (tag: string) => `${tag}:${JSON.stringify({ qr: 'ф"\\😀\u0001x'.repeat(3_000) })}`;
    const got: Record<string, string[]> = { p1: [], p2: [] };
    const stops = await Promise.all(['p1', 'p2'].map((id) => b.subscribe(`payment:${id}`, (m) => got[id]!.push(m))));
    await Promise.all([a.publish('payment:p1', large('first')), a.publish('payment:p2', large('other'))]);
    await a.publish('payment:p1', 'small');
    await a.publish('payment:p1', large('last'));
    for (let i = 0; i < 400 && got.p1!.length < 3; i++) await sleep(5);
    await Promise.all(stops.map((stop) => stop()));
    expect(got.p1).toEqual([large('first'), 'small', large('last')]);
    expect(got.p2).toEqual([large('other')]);
  });
});

describe('PostgresStore schema', () => {
  it('is created once when many processes start at once against an empty database, and its version recorded', async () => {
    const schema = freshSchema();
    const stores = Array.from({ length: 6 }, () => open(schema, { max: 1 }));
    await Promise.all(stores.map((store) => store.ready()));
    const versions = await admin`SELECT version FROM ${admin(schema)}.schema_migrations`;
    expect(versions.map((row) => row.version).sort()).toEqual([1, 2, 3, 4, 5]);
    await Promise.all(stores.map((store, i) => store.putOrder({ orderId: `A-${i}`, payments: [] })));
    expect(await stores[0]!.getOrder('A-5')).toEqual({ orderId: 'A-5', payments: [] });
  });

  it('refuses a schema written by a newer release, naming the fix', async () => {
    const schema = freshSchema();
    await open(schema).ready();
    await admin`INSERT INTO ${admin(schema)}.schema_migrations (version) VALUES (99)`;
    await expect(open(schema).getOrder('A-1')).rejects.toThrow(/newer release.*upgrade payin-checkout/);
  });

  it('keeps what must never repeat and drops scratch after its time to live', async () => {
    const schema = freshSchema();
    const store = open(schema, { ttlMs: 1 });
    const final = record('done', 1, 'finished');
    await store.putPayment({ ...final, view: { ...final.view, outcome: 'paid', final: true } }, 0);
    await store.putPayment(record('open', 1), 0);
    await store.putOrder({ orderId: 'paid', payments: [], paidBy: 'done' });
    await store.putOrder({ orderId: 'unpaid', payments: [] });
    await store.enqueueAnnouncement('done', 'finished', 0);
    await store.commitAnnouncement('done', 'finished');
    await sleep(20);
    // Another instance's first write prunes (at most once a minute per instance), in the background.
    const other = open(schema, { ttlMs: 1 });
    await other.putOrder({ orderId: 'later', payments: [] });
    for (let i = 0; i < 200 && (await other.getPayment('open')); i++) await sleep(10);
    expect(await other.getPayment('open')).toBeUndefined();
    expect(await other.getOrder('unpaid')).toBeUndefined();
    expect(await other.getPayment('done')).toBeDefined();
    expect(await other.getOrder('paid')).toBeDefined();
    expect(await other.wasAnnounced('done', 'finished')).toBe(true);
  });
});

describe('PostgresStore transactions', () => {
  // postgres.js 3.4.9 ends the process when the database goes away with one of its transactions open
  // (test/faults/postgres-process-outage.test.ts, postgres-migration-outage.test.ts): none may ever be opened.
  it('opens no client transaction, not to create its schema, nor to prune, nor to publish a long message', async () => {
    const schema = freshSchema();
    const opens: string[] = [];
    const watched = (max: number) =>
      new Proxy(postgres(server.url, { max, onnotice: () => {}, connection: { search_path: schema } }), {
        get: (target, key) => {
          if (key === 'begin' || key === 'reserve') opens.push(key);
          return Reflect.get(target, key);
        },
      });
    const store = new PostgresStore(watched(2), {
      schema,
      ttlMs: 1,
      closeTimeoutSeconds: 1,
      pruneEveryMs: 0,
      migrationClient: () => watched(1),
    });
    opened.push(store);
    await store.putPayment(record('open', 1), 0);
    await store.putOrder({ orderId: 'A-1', payments: [] }); // each write prunes (pruneEveryMs 0), in the background
    await store.publish('payment:open', 'x'.repeat(20_000)); // three NOTIFY payloads
    for (let i = 0; i < 200 && (await store.getPayment('open')); i++) await sleep(10);
    expect(await store.getPayment('open')).toBeUndefined(); // the prune did run
    expect(opens).toEqual([]);
  });
});

describe('PostgresStore scratch', () => {
  it('keeps an open payment that reconciliation still follows, however long since its last write', async () => {
    const schema = freshSchema();
    const store = open(schema, { ttlMs: 1 });
    // A payment that may be paid for days (a bank transfer), written once and unchanged since.
    await store.putPayment({ ...record('followed', 1), followUntil: Date.now() + 60 * 60_000 }, 0);
    await store.putPayment(record('abandoned', 1), 0);
    await sleep(20);
    const other = open(schema, { ttlMs: 1 });
    await other.putOrder({ orderId: 'later', payments: [] }); // its first write prunes, in the background
    for (let i = 0; i < 200 && (await other.getPayment('abandoned')); i++) await sleep(10);
    expect(await other.getPayment('abandoned')).toBeUndefined();
    expect(await other.getPayment('followed')).toBeDefined();
    expect(await other.followedPayments(10)).toEqual(['followed']);
  });
});

describe('PostgresStore console', () => {
  it('moves a payment between filters when its state and announcement are written together (putPaymentAndEnqueue)', async () => {
    const store = open(freshSchema());
    expect(await store.putPaymentAndEnqueue(listed('p1', 10, { expiresAt: 100 }), 0, 0)).toBe(true);
    expect((await store.countPayments(50)).open).toBe(1);
    expect(await store.putPaymentAndEnqueue(listed('p1', 10, { outcome: 'paid', expiresAt: 100, finalAt: 200, version: 2 }), 1, 0)).toBe(
      true,
    );
    const list = async (filter: 'open' | 'paid' | 'late') => (await store.listPayments({ filter, limit: 5, now: 300 })).payments;
    expect(await list('open')).toEqual([]);
    expect((await list('late')).map((p) => p.view.outcome)).toEqual(['paid']);
    expect(await store.countPayments(300)).toMatchObject({ all: 1, open: 0, paid: 1, late: 1, stuck: 0 });
    // A write over a version that moved changes neither the record nor its listing.
    expect(await store.putPaymentAndEnqueue(listed('p1', 10, { outcome: 'failed', version: 3 }), 1, 0)).toBe(false);
    expect((await store.countPayments(300)).failed).toBe(0);
  });

  it('lists from a cursor edited to a place between two milliseconds as the other stores do, not a database error', async () => {
    const store = open(freshSchema());
    for (const [id, at] of [
      ['p1', 1],
      ['p2', 2],
      ['p3', 2],
    ] as const)
      await store.putPayment(listed(id, at), 0);
    const cursor = (place: number) => Buffer.from(JSON.stringify([place, 'p9'])).toString('base64url');
    const ids = async (place: number) =>
      (await store.listPayments({ filter: 'all', limit: 3, now: 0, cursor: cursor(place) })).payments.map((p) => p.view.id);
    expect(await ids(2.5)).toEqual(['p3', 'p2', 'p1']);
    expect(await ids(1.5)).toEqual(['p1']);
    await expect(store.listPayments({ filter: 'all', limit: 3, now: 0, cursor: cursor(1e300) })).rejects.toThrow(RangeError);
  });

  it('keeps its counts exact through the clean-up that drops scratch and folds them, and through SQL of another session', async () => {
    const schema = freshSchema();
    const store = open(schema);
    // Followed by reconciliation, so kept however long since its last write.
    const followed = { followUntil: Date.now() + 60 * 60_000 };
    await store.putPayment({ ...listed('stays-open', 10, { expiresAt: 100 }), ...followed }, 0);
    await store.putPayment(listed('abandoned', 11), 0);
    await store.putPayment(listed('paid', 12, { outcome: 'paid', expiresAt: 100, finalAt: 200 }), 0);
    await store.putPayment({ ...listed('stays-open', 10, { expiresAt: 100, version: 2 }), ...followed }, 1);
    await sleep(20);
    const other = open(schema, { ttlMs: 10 });
    await other.putPayment(listed('expired', 13, { outcome: 'expired' }), 0); // its first write prunes and folds, in the background
    for (let i = 0; i < 200 && (await other.getPayment('abandoned')); i++) await sleep(10);
    expect(await other.getPayment('abandoned')).toBeUndefined();
    expect(await other.countPayments(150)).toMatchObject({ all: 3, open: 1, paid: 1, late: 1, expired: 1, stuck: 1 });
    // Nine rows of changes (the writes' own) folded into one per filter (five), and the clean-up's deletion added two.
    const [folded] = await admin`SELECT count(*)::int AS rows FROM ${admin(schema)}.payment_counts`;
    expect(folded!.rows).toBe(7);
    // An operator's statement in psql, with another search_path, counts into this schema's table.
    await admin.unsafe(`DELETE FROM ${schema}.payments WHERE id = 'expired'`);
    expect(await other.countPayments(150)).toMatchObject({ all: 2, open: 1, paid: 1, expired: 0 });
  });

  it("drops an open payment's timeline with the payment after its time to live", async () => {
    const schema = freshSchema();
    const store = open(schema); // kept for a day: its own pruning leaves them alone
    await store.putPayment(record('open', 1), 0);
    await store.appendHistory('open', { at: 1, kind: 'state', state: 'pending', outcome: 'waiting', source: 'create' });
    await sleep(20);
    const other = open(schema, { ttlMs: 1 });
    await other.putOrder({ orderId: 'later', payments: [] }); // its first write prunes, in the background
    for (let i = 0; i < 200 && (await other.paymentHistory('open')).length > 0; i++) await sleep(10);
    expect(await other.getPayment('open')).toBeUndefined();
    expect(await other.paymentHistory('open')).toEqual([]);
  });
});

describe('createPostgresStore', () => {
  it('refuses a url that is not postgres:// or postgresql://, without echoing it', () => {
    expect(() => createPostgresStore({ url: 'mysql://user:hunter2@127.0.0.1/shop' })).toThrow(
      expect.objectContaining({ message: expect.not.stringContaining('hunter2') }),
    );
    expect(() => createPostgresStore({ url: 'localhost:5432' })).toThrow(/postgres:\/\/ or postgresql:\/\//);
    expect(() => createPostgresStore({ url: server.url, schema: 'Robert"; DROP' })).toThrow(/schema must be/);
  });

  it('refuses an answer timeout no longer than the lock timeout: a statement waiting for a lock would fail as unanswered', () => {
    expect(() => createPostgresStore({ url: server.url, lockTimeoutSeconds: 5, answerTimeoutSeconds: 5 })).toThrow(
      /answerTimeoutSeconds must be a number of seconds longer than lockTimeoutSeconds \(5\), such as 10/,
    );
  });

  it('refuses an option it does not know, naming it and those it takes', () => {
    // postgres.js's own name for the pool size: the store kept its 10 connections.
    expect(() => createPostgresStore({ url: server.url, schema: freshSchema(), maxConnections: 2 } as never)).toThrow(
      /createPostgresStore: options has no maxConnections; it takes .*\bmax\b/,
    );
  });

  it('fails an operation on a database that is not there with an error that says so', async () => {
    const store = createPostgresStore({ url: 'postgres://postgres@127.0.0.1:1/postgres', connectTimeoutSeconds: 2 });
    opened.push(store);
    const failure = await store.getOrder('A-1').catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(PostgresStoreError);
    expect((failure as Error).message).toMatch(/refused the connection: is it running/);
  });
});
