// The operator console's list over a big ledger: BENCH_CONSOLE_PAYMENTS (default 100,000) payments in a SQLite
// file (70% paid, 10% expired, 5% underpaid, 5% failed, 10% open of which half past their expiry, 1% second
// payments, half of them marked refunded), then a page of 50 read BENCH_CONSOLE_ROUNDS times (default 200) each
// way: the newest page, a page half-way down through its cursor, a filter (paid, stuck, second, refunded), one order, the counts, and the console's
// whole JSON answer (page and counts) through the proxy's handler. Target: a page under 50 ms (p95).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ms, verdict } from './support/format.mjs';
import { commandOf, envNumber, report } from './support/section.mjs';
import { at } from './support/stack.mjs';
import { consoleAnswer, timerOf } from './support/console-reads.mjs';

const payments = envNumber('BENCH_CONSOLE_PAYMENTS', 100_000, { min: 1_000, max: 2_000_000 });
const rounds = envNumber('BENCH_CONSOLE_ROUNDS', 200, { min: 10, max: 10_000 });
const command = commandOf('console-list.mjs', { BENCH_CONSOLE_PAYMENTS: process.env.BENCH_CONSOLE_PAYMENTS });
const { createSqliteStore } = await import(at('dist/sqlite/index.js'));

const dir = mkdtempSync(join(tmpdir(), 'payin-bench-console-'));
const NOW = Date.UTC(2026, 10, 1);
const clock = { now: () => NOW, setTimeout: (f, ms) => setTimeout(f, ms), clearTimeout: (t) => clearTimeout(t) };
const store = createSqliteStore({ path: join(dir, 'ledger.db'), clock });
try {
  const madeAt = performance.now();
  for (let i = 0; i < payments; i++) await store.putPayment(recordOf(i), 0);
  const madeMs = performance.now() - madeAt;

  const time = timerOf(rounds);
  const page = (query) => store.listPayments({ limit: 50, now: NOW, ...query });
  let cursor;
  for (let i = 0; i < payments / 2 / 200; i++) cursor = (await store.listPayments({ filter: 'all', limit: 200, now: NOW, cursor })).next;

  const consoleApi = consoleAnswer(store, clock);

  const figures = [
    ['newest page of 50 (all)', await time(() => page({ filter: 'all' }))],
    ['a page half-way down, by cursor', await time(() => page({ filter: 'all', cursor }))],
    ['newest page of 50 paid', await time(() => page({ filter: 'paid' }))],
    ['newest page of 50 stuck', await time(() => page({ filter: 'stuck' }))],
    ['newest page of second payments', await time(() => page({ filter: 'second' }))],
    ['newest page of refunded second payments', await time(() => page({ filter: 'refunded' }))],
    ["one order's payments", await time(() => page({ filter: 'all', orderId: 'order-77777' }))],
    ['counts of every filter', await time(() => store.countPayments(NOW))],
    ['the console API answer (page + counts)', await time(consoleApi.read)],
  ];
  await consoleApi.close();
  const counts = await store.countPayments(NOW);
  await report({
    id: 'console-list',
    title: `Console list over ${payments.toLocaleString('en-US')} payments in SQLite`,
    note:
      `p50 and p95 of ${rounds} reads each, one after another, after 10 warm-up reads. Writing the payments took ` +
      `${(madeMs / 1000).toFixed(1)} s. Counts: ${JSON.stringify(counts)}.`,
    rows: figures.map(([figure, s]) => {
      const page = figure !== 'counts of every filter';
      return {
        figure: `${figure} (p50 / p95)`,
        value: `${ms(s.p50)} / ${ms(s.p95)}`,
        target: page ? '< 50 ms (p95)' : 'reported',
        verdict: page ? verdict(s.p95 < 50) : 'n/a',
        command,
      };
    }),
    raw: { payments, rounds, madeMs, figures: Object.fromEntries(figures), counts },
  });
} finally {
  await store.close();
  rmSync(dir, { recursive: true, force: true });
}

/** Payment i: a mix of outcomes, listed one second apart, the newest last. */
function recordOf(i) {
  const listedAt = NOW - (payments - i) * 1_000;
  const kind = i % 100;
  const outcome = kind < 70 ? 'paid' : kind < 80 ? 'expired' : kind < 85 ? 'underpaid' : kind < 90 ? 'failed' : 'waiting';
  const final = outcome !== 'waiting';
  const expiresAt = kind >= 95 ? NOW + 600_000 : listedAt + 900_000;
  const state = { paid: 'finished', underpaid: 'finished', expired: 'expired', failed: 'failed', waiting: 'pending' }[outcome];
  return {
    view: {
      id: `p${String(i).padStart(8, '0')}`,
      orderId: `order-${i % 99_991}`,
      method: i % 2 ? 'upi' : 'sbp',
      state,
      outcome,
      final,
      amount: '499.00',
      currency: 'INR',
      createdAt: new Date(listedAt).toISOString(),
      expiresAt: new Date(expiresAt).toISOString(),
    },
    priced: { amount: '499.00', currency: 'INR' },
    version: 1,
    updatedAt: listedAt,
    listedAt,
    ...(final ? { finalAt: listedAt + 60_000 } : { followUntil: expiresAt + 1_800_000 }),
    ...(kind === 3 ? { secondPaymentOf: `p${String(i - 1).padStart(8, '0')}` } : {}),
    ...(kind === 3 && i % 200 === 3 ? { refunded: { at: listedAt + 3_600_000, operator: 'ana', reference: `re_${i}` } } : {}),
  };
}
