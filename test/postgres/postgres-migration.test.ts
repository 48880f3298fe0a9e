/**
 * A database written by the release before the console (schema version 1) is brought forward by the store on its
 * first operation: the listing columns are filled in from the stored records (across several back-fill batches),
 * so the console lists, filters and counts the old payments like new ones, and the new tables are there. A database
 * that goes away in the middle of it fails that start, with nothing half-done, and the next start does it all once.
 */
import postgres from 'postgres';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createPostgresStore } from '../../src/postgres/index.js';
import { markContradicted } from '../../src/proxy/ledger/contradiction-marks.js';
import { markRefunded } from '../../src/proxy/ledger/refund-marks.js';
import { ManualClock } from '../../src/shared/manual-clock.js';
import { listed, writeNotedContradictions } from '../proxy/infrastructure/console-store-contract.js';
import { eventually } from '../proxy/sandbox-harness.js';
import { usePostgresServer } from './postgres-server-harness.js';
import { createVersion1Schema } from './schema-version-1.js';

const server = usePostgresServer();
let admin: postgres.Sql;

beforeAll(async () => {
  admin = postgres(server.url, { max: 1, onnotice: () => {} });
});
afterAll(async () => {
  await admin?.end();
});

it('brings a version 1 schema forward: its payments are listed, filtered and counted by the console', async () => {
  const schema = `old_${Math.random().toString(36).slice(2)}`;
  await createVersion1Schema(admin, schema);
  const old = [
    listed('old-late', 5_000, { outcome: 'paid', expiresAt: 5_500, finalAt: 6_000, orderId: 'A-1' }),
    listed('old-second', 5_001, { outcome: 'paid', finalAt: 5_100, secondPaymentOf: 'old-late', orderId: 'A-1' }),
    listed('old-stuck', 5_002, { expiresAt: 5_200 }),
    listed('old-gone', 5_003, { outcome: 'expired' }),
  ];
  // Many more than one back-fill batch (500), so that the batches are seen to follow on from each other.
  const filler = Array.from({ length: 1_203 }, (_, i) => listed(`old-${String(i).padStart(4, '0')}`, 1_000 + i));
  for (const record of [...old, ...filler]) {
    await admin`INSERT INTO ${admin(schema)}.payments (id, version, record, final, updated_at)
      VALUES (${record.view.id}, 1, ${JSON.stringify(record)}::text::jsonb, ${record.view.final}, 0)`;
  }
  await admin`INSERT INTO ${admin(schema)}.announcements (payment_id, state, attempts, due_at) VALUES ('old-gone', 'expired', 2, 0)`;

  const store = createPostgresStore({ url: server.url, schema, max: 2 });
  try {
    const ids = async (filter: 'all' | 'paid' | 'late' | 'second' | 'stuck' | 'expired' | 'failing', orderId?: string) =>
      (await store.listPayments({ filter, limit: 5, now: 5_300, ...(orderId ? { orderId } : {}) })).payments.map((p) => p.view.id);
    expect(await ids('all')).toEqual(['old-gone', 'old-stuck', 'old-second', 'old-late', 'old-1202']);
    expect(await ids('paid')).toEqual(['old-second', 'old-late']);
    expect(await ids('late')).toEqual(['old-late']);
    expect(await ids('second')).toEqual(['old-second']);
    expect(await ids('stuck')).toEqual(['old-stuck']);
    expect(await ids('expired')).toEqual(['old-gone']);
    expect(await ids('failing')).toEqual(['old-gone']);
    expect(await ids('all', 'A-1')).toEqual(['old-second', 'old-late']);
    const counts = await store.countPayments(5_300);
    expect(counts).toMatchObject({ all: 1_207, open: 1_204, paid: 2, late: 1, second: 1, refunded: 0, expired: 1, failing: 1, stuck: 1 });
    // The oldest filler payments (the last back-fill batch) are on the last page, in order.
    let page = await store.listPayments({ filter: 'open', limit: 200, now: 0 });
    for (let i = 0; i < 10 && page.next; i++) page = await store.listPayments({ filter: 'open', limit: 200, now: 0, cursor: page.next });
    expect(page.next).toBeUndefined();
    expect(page.payments.at(-1)?.view.id).toBe('old-0000');
    await store.appendHistory('old-late', { at: 1, kind: 'state', state: 'finished', outcome: 'paid', source: 'callback' });
    expect(await store.paymentHistory('old-late')).toHaveLength(1);
    const versions = await admin`SELECT version FROM ${admin(schema)}.schema_migrations ORDER BY version`;
    expect(versions.map((row) => row.version)).toEqual([1, 2, 3, 4, 5]);
    // The old second payment, refunded since, is marked so: it leaves the refunds to do (migration 3's column).
    expect(await markRefunded({ store, clock: new ManualClock() }, 'old-second', { operator: 'ana' })).toHaveProperty('marked');
    expect(await ids('second')).toEqual([]);
    expect((await store.listPayments({ filter: 'refunded', limit: 5, now: 0 })).payments.map((p) => p.view.id)).toEqual(['old-second']);
    expect(await store.countPayments(5_300)).toMatchObject({ second: 0, refunded: 1 });
    // The old expired payment, finished at the service since, is a contradiction to look into (migration 4's column).
    await markContradicted({ store, clock: new ManualClock() }, 'old-gone', 'finished');
    expect((await store.listPayments({ filter: 'contradicted', limit: 5, now: 0 })).payments.map((p) => p.view.id)).toEqual(['old-gone']);
    expect(await store.countPayments(5_300)).toMatchObject({ expired: 1, contradicted: 1, resolved: 0 });
  } finally {
    await store.close();
  }
});

it('marks, bringing the schema before the contradiction marks forward, each payment whose timeline noted one', async () => {
  const schema = `v3_${Math.random().toString(36).slice(2)}`;
  const before = createPostgresStore({ url: server.url, schema, max: 1 });
  try {
    await writeNotedContradictions(before);
  } finally {
    await before.close();
  }
  // What the release before wrote: its schema (version 3) had no contradicted column, no payment a mark, and no
  // counts table (version 5).
  await admin.unsafe(`DROP TABLE ${schema}.payment_counts; DROP FUNCTION ${schema}.count_payments() CASCADE;
    DROP FUNCTION ${schema}.payment_filters;
    ALTER TABLE ${schema}.payments DROP COLUMN contradicted, DROP COLUMN resolved;
    DELETE FROM ${schema}.schema_migrations WHERE version >= 4`);

  const store = createPostgresStore({ url: server.url, schema, max: 2 });
  try {
    const page = await store.listPayments({ filter: 'contradicted', limit: 10, now: 0 });
    expect(page.payments.map((p) => [p.view.id, p.contradicted, p.version])).toEqual([['late-money', { at: 900, state: 'finished' }, 2]]);
    expect(await store.countPayments(0)).toMatchObject({ expired: 2, contradicted: 1, resolved: 0 });
    expect((await store.getPayment('quiet'))!.contradicted).toBeUndefined();
  } finally {
    await store.close();
  }
});

it('fails its start with a clear error when the database stops under the migration, and does it once on the next', async () => {
  const schema = `cut_${Math.random().toString(36).slice(2)}`;
  await createVersion1Schema(admin, schema);
  const old = listed('old-paid', 5_000, { outcome: 'paid', orderId: 'OLD-1' });
  await admin`INSERT INTO ${admin(schema)}.payments (id, version, record, final, updated_at)
    VALUES (${old.view.id}, 1, ${JSON.stringify(old)}::text::jsonb, true, 0)`;
  // An operator's open transaction (one simple query, no client transaction) holds up migration 2's ALTER TABLE.
  const operator = postgres(server.url, { max: 1, onnotice: () => {} });
  await operator.unsafe(`BEGIN; LOCK TABLE ${schema}.payments IN ACCESS SHARE MODE`);
  const store = createPostgresStore({ url: server.url, schema, max: 2, connectTimeoutSeconds: 2 });
  try {
    const starting = store.ready();
    starting.catch(() => {}); // looked at below, once the database is stopped
    await eventually(
      async () =>
        (await admin`SELECT 1 FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND query LIKE '%ALTER TABLE payments%'`).length === 1,
      5_000,
      'the migration to wait for the locked table',
    );
    await server.stop();
    // The stop's own message (57P01) or the closed socket, whichever the client reads first.
    await expect(starting).rejects.toThrow(/creating the schema failed: .*nothing was written.*\((57P01|CONNECTION_CLOSED)\)/);
    await server.start();
    await store.ready();
    const versions = await admin`SELECT version FROM ${admin(schema)}.schema_migrations ORDER BY version`;
    expect(versions.map((row) => row.version)).toEqual([1, 2, 3, 4, 5]);
    expect(await store.listPayments({ filter: 'paid', limit: 5, now: 0 })).toMatchObject({ payments: [{ view: { id: 'old-paid' } }] });
  } finally {
    await store.close();
    await operator.end({ timeout: 1 });
  }
});

it('lets close() end a migration that waits for a lock, leaving the schema as it was', async () => {
  const schema = `closed_${Math.random().toString(36).slice(2)}`;
  await createVersion1Schema(admin, schema);
  const operator = postgres(server.url, { max: 1, onnotice: () => {} });
  await operator.unsafe(`BEGIN; LOCK TABLE ${schema}.payments IN ACCESS SHARE MODE`);
  try {
    const store = createPostgresStore({ url: server.url, schema, closeTimeoutSeconds: 0.1 });
    const starting = store.ready();
    starting.catch(() => {});
    await eventually(
      async () =>
        (await admin`SELECT 1 FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND query LIKE '%ALTER TABLE payments%'`).length === 1,
      5_000,
      'the migration to wait for the locked table',
    );
    const closedWithin = performance.now();
    await store.close();
    expect(performance.now() - closedWithin).toBeLessThan(2_000);
    await expect(starting).rejects.toThrow(/creating the schema failed/);
    const versions = await admin`SELECT version FROM ${admin(schema)}.schema_migrations ORDER BY version`;
    expect(versions.map((row) => row.version)).toEqual([1]);
  } finally {
    await operator.end({ timeout: 1 });
  }
});

it('counts each payment once, bringing the schema before the counts table forward while the release before writes', async () => {
  const schema = `v4_${Math.random().toString(36).slice(2)}`;
  const before = createPostgresStore({ url: server.url, schema, max: 2 });
  try {
    await before.ready();
    // What the release before wrote: its schema (version 4) had no counts table (version 5).
    await admin.unsafe(`DROP TABLE ${schema}.payment_counts; DROP FUNCTION ${schema}.count_payments() CASCADE;
      DROP FUNCTION ${schema}.payment_filters; DELETE FROM ${schema}.schema_migrations WHERE version = 5`);
    // It goes on writing (new payments, then each one paid) all through the migration, until told to stop; 6,000
    // writes at most.
    let stop = false;
    const writing = (async () => {
      for (let i = 0; i < 3_000 && !stop; i++) {
        await before.putPayment(listed(`w-${i}`, 1_000 + i), 0);
        await before.putPayment(listed(`w-${i}`, 1_000 + i, { outcome: 'paid', finalAt: 2_000, version: 2 }), 1);
      }
    })();
    const written = async () => Number((await admin.unsafe(`SELECT count(*) AS n FROM ${schema}.payments`))[0]!.n);
    await eventually(async () => (await written()) >= 20, 5_000, 'the release before to have written 20 payments');
    const store = createPostgresStore({ url: server.url, schema, max: 2 });
    try {
      await store.ready();
      // The migration ran while the writes went on: they were still going once it was done (under load a fixed
      // count of writes could all end before it).
      const atReady = await written();
      await eventually(async () => (await written()) > atReady, 5_000, 'the release before to write on after the migration');
    } finally {
      stop = true;
      await writing;
    }
    try {
      // A statement rolled back with its transaction moves no count.
      const rolledBack = admin.begin(async (tx) => {
        await tx.unsafe(`DELETE FROM ${schema}.payments WHERE id = 'w-0'`);
        throw new Error('rolled back');
      });
      await expect(rolledBack).rejects.toThrow('rolled back');
      const [exact] = await admin.unsafe(`SELECT count(*)::int AS "all", count(*) FILTER (WHERE tag = 'paid')::int AS paid,
        count(*) FILTER (WHERE tag = 'open')::int AS open FROM ${schema}.payments`);
      expect(exact!.all).toBeGreaterThan(20);
      expect(await store.countPayments(0)).toMatchObject({ all: exact!.all, paid: exact!.paid, open: exact!.open });
    } finally {
      await store.close();
    }
  } finally {
    await before.close();
  }
});
