// Figure 6: the heap of a proxy process holding 10,000 pending payments (BENCH_PAYMENTS), in the memory store
// and in the SQLite store (`payin-checkout/sqlite`, a file in the temporary folder). Each store gets a fresh
// child process run with --expose-gc, whose proxy asks a sandbox served here. By default one payment is created
// through the proxy and reaches `pending` by the sandbox's callback; the rest are copies of its record under
// their own ids and orders, written through the store's API as the ledger writes them (creating 10,000 through
// the proxy takes minutes here). BENCH_MEMORY_VIA=proxy creates every one through the proxy instead. Heaps are
// read after a full GC: before (the proxy started, 20 payments made) and after.
import { startCompanion } from './support/child.mjs';
import { bytesPer, mb, verdict } from './support/format.mjs';
import { commandOf, envNumber, report } from './support/section.mjs';
import { createSandbox, serve, until } from './support/stack.mjs';

const payments = envNumber('BENCH_PAYMENTS', 10_000, { min: 100, max: 1_000_000 });
const viaProxy = process.env.BENCH_MEMORY_VIA === 'proxy';
const command = commandOf('memory.mjs', { BENCH_PAYMENTS: process.env.BENCH_PAYMENTS, BENCH_MEMORY_VIA: process.env.BENCH_MEMORY_VIA });
const LIMIT = 50e6;

const sandbox = createSandbox({ requisitesDelayMs: 0, maxPayments: 10 * payments + 1_000 });
const served = await serve(sandbox, { maxConnections: 5_000 });
const results = {};
try {
  for (const kind of ['memory', 'sqlite']) {
    const child = await startCompanion('memory-child.mjs', { execArgv: ['--expose-gc'] });
    try {
      await child.request({ cmd: 'start', kind, sandboxUrl: served.url });
      const settled = async () => {
        await until('the sandbox to assign every payment', () => sandbox.payments().every((p) => p.state !== 'created'), 120_000, 50);
        await sandbox.idle();
      };
      await child.request({ cmd: 'create', n: 20, concurrency: 4 });
      await settled();
      const before = await child.request({ cmd: 'sample' });
      const made = viaProxy
        ? await child.request({ cmd: 'create', n: payments, concurrency: 16 }, 900_000)
        : await child.request({ cmd: 'copy', n: payments }, 300_000);
      await settled();
      const after = await child.request({ cmd: 'sample' });
      results[kind] = { before, after, createMs: made.ms };
      await child.request({ cmd: 'stop' });
    } finally {
      await child.stop();
    }
  }
  const rows = [];
  for (const [kind, r] of Object.entries(results)) {
    const name = kind === 'memory' ? 'memory store' : 'SQLite store';
    rows.push({
      figure: `heap with ${payments.toLocaleString('en-US')} pending payments, ${name} (after a full GC)`,
      value: mb(r.after.heapUsed),
      target: '<= 50 MB',
      compared: `${mb(r.before.heapUsed)} before the payments; ${bytesPer((r.after.heapUsed - r.before.heapUsed) / payments)} per payment`,
      verdict: verdict(r.after.heapUsed <= LIMIT),
      command,
    });
    rows.push({
      figure: `resident memory, ${name}`,
      value: mb(r.after.rss),
      target: 'reported',
      compared: `${mb(r.before.rss)} before; ${r.after.followed.toLocaleString('en-US')} payments followed`,
      command,
    });
  }
  await report({
    id: 'memory',
    title: `Memory: ${payments.toLocaleString('en-US')} pending payments in the memory and SQLite stores`,
    note:
      `Each store runs in a fresh proxy process. ${viaProxy ? 'Every payment was created through the proxy, 16 at a time' : 'One payment was created through the proxy, the rest are copies of its record written through the store API'} ` +
      `(memory ${(results.memory.createMs / 1000).toFixed(1)} s, SQLite ${(results.sqlite.createMs / 1000).toFixed(1)} s). ` +
      '"Followed" is what the store then lists for reconciliation: the memory store keeps at most 10,000 open payments by ' +
      'default (maxEntries) and drops the oldest past that. SQLite keeps its pages outside the JavaScript heap, so its ' +
      'resident memory is shown beside the heap. Whether the heap stays flat while the proxy works: see the soak section ' +
      '(node bench/soak-memory.mjs).',
    rows,
    raw: { payments, results },
  });
} finally {
  await served.close();
  sandbox.close();
}
