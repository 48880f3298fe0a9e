/**
 * The store at the size a shop with several servers reaches in a year or two (test/tools/postgres-ledger-fill.mjs):
 * every read that runs while money moves (reconcile, the outbox) or while an operator waits (the console's page,
 * counts, search, timeline, audit, export) is answered from an index, never by reading the payments, timelines,
 * audit or outbox table whole, which makes it slower with every payment the shop takes. PostgreSQL's own count of
 * sequential scans per table (pg_stat_user_tables) is read around the store's real statements, with their real
 * parameters and postgres.js's prepared plans; a store's statistics reach it when its connections close.
 */
import postgres from 'postgres';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createPostgresStore, type PostgresStore } from '../../src/postgres/index.js';
import { CONSOLE_FILTERS } from '../../src/proxy/infrastructure/console-store.js';
// @ts-expect-error a plain .mjs tool without type declarations, shared with the bench
import { fillLedger } from '../tools/postgres-ledger-fill.mjs';
import { usePostgresServer } from './postgres-server-harness.js';

const server = usePostgresServer();
const SCHEMA = 'year_ledger';
/** Enough rows for the planner to weigh an index against the table as it would at 300,000 (the bench's size). */
const PAYMENTS = 40_000;
const NOW = Date.UTC(2026, 10, 1);
const BIG_TABLES = ['payments', 'payment_history', 'audit', 'announcements'];
let admin: postgres.Sql;

beforeAll(async () => {
  admin = postgres(server.url, { max: 1, onnotice: () => {} });
  const store = createPostgresStore({ url: server.url, schema: SCHEMA, max: 1 });
  await store.ready();
  await store.close();
  await fillLedger(admin, SCHEMA, { payments: PAYMENTS, now: NOW });
}, 60_000);
afterAll(async () => {
  await admin?.end();
});

/** Sequential scans of each big table so far, once every statistic waiting in this session is written. */
async function seqScans(): Promise<Record<string, number>> {
  await admin`SELECT pg_stat_force_next_flush()`;
  const rows = await admin`SELECT relname, seq_scan FROM pg_stat_user_tables WHERE schemaname = ${SCHEMA}`;
  return Object.fromEntries(rows.filter((r) => BIG_TABLES.includes(r.relname)).map((r) => [r.relname, Number(r.seq_scan)]));
}

/** The tables that `work` read whole, through a store of its own (closed after it, so that its statistics are in). */
async function tablesScannedBy(work: (store: PostgresStore) => Promise<void>): Promise<string[]> {
  const before = await seqScans();
  const store = createPostgresStore({ url: server.url, schema: SCHEMA, max: 2 });
  try {
    await store.ready();
    // Six rounds: postgres.js prepares each statement, and PostgreSQL may switch to a generic plan after five.
    for (let round = 0; round < 6; round++) await work(store);
  } finally {
    await store.close();
  }
  const after = await seqScans();
  return BIG_TABLES.filter((table) => after[table] !== before[table]);
}

const mid = `p${String(PAYMENTS / 2).padStart(8, '0')}`;

it("answers the console's counts of every filter without reading the payments whole", async () => {
  expect(await tablesScannedBy((store) => store.countPayments(NOW).then(() => {}))).toEqual([]);
});

it('lists every filter, first page and from a cursor half-way down, one order, and finds a payment, from indexes', async () => {
  const scanned = await tablesScannedBy(async (store) => {
    const half = await store.listPayments({ filter: 'all', limit: PAYMENTS / 2, now: NOW });
    for (const filter of CONSOLE_FILTERS) {
      await store.listPayments({ filter, limit: 50, now: NOW });
      await store.listPayments({ filter, limit: 50, now: NOW, ...(half.next ? { cursor: half.next } : {}) });
      await store.listPayments({ filter, limit: 50, now: NOW, orderId: 'order-77' });
    }
    await store.getPayment(mid);
  });
  expect(scanned).toEqual([]);
});

it("reads a payment's timeline and audit, the audit log, the reconcile sweep's and the outbox's work from indexes", async () => {
  const scanned = await tablesScannedBy(async (store) => {
    await store.paymentHistory(mid);
    await store.auditLog(mid, 50);
    await store.auditLog(undefined, 50);
    await store.followedPayments(100);
    await store.followedPayments(100, mid);
    await store.dueAnnouncements(NOW, 100);
    await store.dueAnnouncements(Number.MAX_SAFE_INTEGER, 1);
    await store.wasAnnounced(mid, 'finished');
  });
  expect(scanned).toEqual([]);
});

it('drops scratch and folds the counts in its background clean-up from indexes', async () => {
  const scanned = await tablesScannedBy(async (store) => {
    // A store's first write starts the clean-up; closing the store waits for it.
    await store.putOrder({ orderId: 'order-late', payments: [] });
  });
  expect(scanned).toEqual([]);
});

it('counts each filter exactly as the listing columns say, at this size', async () => {
  const store = createPostgresStore({ url: server.url, schema: SCHEMA, max: 1 });
  try {
    const counts = await store.countPayments(NOW);
    const [expected] = await admin`SELECT count(*)::int AS "all", count(*) FILTER (WHERE tag = 'paid')::int AS paid,
        count(*) FILTER (WHERE tag = 'open')::int AS open, count(*) FILTER (WHERE late)::int AS late,
        count(*) FILTER (WHERE second)::int AS second, count(*) FILTER (WHERE refunded)::int AS refunded,
        count(*) FILTER (WHERE contradicted)::int AS contradicted, count(*) FILTER (WHERE resolved)::int AS resolved,
        count(*) FILTER (WHERE tag = 'open' AND expires_at < ${NOW})::int AS stuck
      FROM ${admin(SCHEMA)}.payments`;
    expect(counts).toMatchObject({ ...expected, failing: 80, superseded: 0 });
  } finally {
    await store.close();
  }
});
