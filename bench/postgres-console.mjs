// The PostgreSQL store at the size a shop with several servers reaches in a year or two: BENCH_PG_PAYMENTS (default
// 300,000) payments written by bulk INSERTs of the rows the store writes (test/tools/postgres-ledger-fill.mjs: mostly
// final, some open, late, second, refunded, contradicted, resolved; 5,000 orders of three payments; three timeline
// lines each, audit lines, the outbox), in a throwaway cluster (test/tools/postgres-server.mjs), then each read the
// console and the money paths run, BENCH_PG_ROUNDS times (default 100) after 10 warm-up reads: pages of 50 (newest,
// half-way down by cursor, filters), one order, a payment found by id, the counts of every filter, the console's
// whole JSON answer (page and counts), a payment's timeline and audit, the reconcile sweep's followed payments and
// the outbox's due announcements. Target: each under 50 ms (p95), as bench/console-list.mjs holds SQLite to.
import { ms, verdict } from './support/format.mjs';
import { commandOf, envNumber, report } from './support/section.mjs';
import { at } from './support/stack.mjs';
import { consoleAnswer, timerOf } from './support/console-reads.mjs';

const payments = envNumber('BENCH_PG_PAYMENTS', 300_000, { min: 10_000, max: 5_000_000 });
const rounds = envNumber('BENCH_PG_ROUNDS', 100, { min: 10, max: 10_000 });
const command = commandOf('postgres-console.mjs', { BENCH_PG_PAYMENTS: process.env.BENCH_PG_PAYMENTS });
const { createPostgresStore } = await import(at('dist/postgres/index.js').href);
const { startPostgres } = await import(at('test/tools/postgres-server.mjs').href);
const { fillLedger } = await import(at('test/tools/postgres-ledger-fill.mjs').href);
const { default: postgres } = await import('postgres');

const NOW = Date.UTC(2026, 10, 1);
const SCHEMA = 'payin';
const clock = { now: () => NOW, setTimeout: (f, ms) => setTimeout(f, ms), clearTimeout: (t) => clearTimeout(t) };
const server = await startPostgres();
const admin = postgres(server.url, { max: 1, onnotice: () => {} });
const store = createPostgresStore({ url: server.url, schema: SCHEMA });
try {
  await store.ready();
  const madeAt = performance.now();
  await fillLedger(admin, SCHEMA, { payments, now: NOW });
  const madeMs = performance.now() - madeAt;
  const [{ size }] = await admin`SELECT pg_size_pretty(pg_total_relation_size('payin.payments')) AS size`;

  const time = timerOf(rounds);
  const page = (query) => store.listPayments({ limit: 50, now: NOW, ...query });
  const half = await store.listPayments({ filter: 'all', limit: Math.floor(payments / 2), now: NOW });
  const cursor = half.next;
  const id = `p${String(Math.floor(payments / 2)).padStart(8, '0')}`;

  const consoleApi = consoleAnswer(store, clock);

  const figures = [
    ['newest page of 50 (all)', await time(() => page({ filter: 'all' }))],
    ['a page half-way down, by cursor', await time(() => page({ filter: 'all', cursor }))],
    ['newest page of 50 paid', await time(() => page({ filter: 'paid' }))],
    ['newest page of 50 stuck', await time(() => page({ filter: 'stuck' }))],
    ['newest page of 50 failing', await time(() => page({ filter: 'failing' }))],
    ['newest page of refunded second payments', await time(() => page({ filter: 'refunded' }))],
    ["one order's payments", await time(() => page({ filter: 'all', orderId: 'order-777' }))],
    ['a payment found by id', await time(() => store.getPayment(id))],
    ['counts of every filter', await time(() => store.countPayments(NOW))],
    ['the console API answer (page + counts)', await time(consoleApi.read)],
    ["a payment's timeline and audit", await time(() => Promise.all([store.paymentHistory(id), store.auditLog(id, 50)]))],
    ['reconcile: 100 followed payments', await time(() => store.followedPayments(100))],
    ['outbox: 100 due announcements', await time(() => store.dueAnnouncements(NOW, 100))],
  ];
  await consoleApi.close();
  const counts = await store.countPayments(NOW);
  await report({
    id: 'postgres-console',
    title: `The PostgreSQL store over ${payments.toLocaleString('en-US')} payments`,
    note:
      `p50 and p95 of ${rounds} reads each, one after another, after 10 warm-up reads. Writing the ledger took ` +
      `${(madeMs / 1000).toFixed(1)} s; the payments table is ${size}. Counts: ${JSON.stringify(counts)}.`,
    rows: figures.map(([figure, s]) => ({
      figure: `${figure} (p50 / p95)`,
      value: `${ms(s.p50)} / ${ms(s.p95)}`,
      target: '< 50 ms (p95)',
      verdict: verdict(s.p95 < 50),
      command,
    })),
    raw: { payments, rounds, madeMs, figures: Object.fromEntries(figures), counts },
  });
} finally {
  await store.close();
  await admin.end();
  await server.remove();
}
