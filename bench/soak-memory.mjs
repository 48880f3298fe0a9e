// Figure 6, continued: whether the heap of a proxy holding 10,000 pending payments (BENCH_PAYMENTS) stays flat
// while it works, in the memory store and in the SQLite store. Each store gets a fresh proxy process run with
// --expose-gc (bench/support/soak-child.mjs) and served on loopback; the sandbox and the browsers live here, so
// the measured heap holds the proxy alone. The set is made once (bench/support/soak-fill.mjs), then
// BENCH_SOAK_ROUNDS rounds of what a live proxy does (bench/support/soak-round.mjs): status polls, event streams
// opened and closed, payments moved on by the sandbox with its signed callbacks (each sent twice, the sandbox's
// duplicateCallbacks fault), and, at the same time, a reconcile sweep of every payment still followed. After
// each round the proxy's heap is read after full collections. No payment is ever added: those that turn final
// stay (a store keeps final payments and announced states by design) and are counted. BENCH_SOAK_SNAPSHOTS=<dir>
// also writes heap snapshots after round 2 and the last round, to compare in DevTools when the verdict is a miss.
import { join } from 'node:path';
import { startCompanion } from './support/child.mjs';
import { mb } from './support/format.mjs';
import { commandOf, envNumber, report } from './support/section.mjs';
import { fillProxy } from './support/soak-fill.mjs';
import { soakRound } from './support/soak-round.mjs';
import { createSandbox, serve } from './support/stack.mjs';

const payments = envNumber('BENCH_PAYMENTS', 10_000, { min: 1_100, max: 1_000_000 });
/** Payments whose browsers hold a token; the first POLLED of them poll every round. */
const WATCHED = 1_000;
const POLLED = 200;
/** Payments put in check per round (and paid the round after), taken in turn from the watched ones. */
const MOVED = 5;
const STREAMS = 200;
const rounds = envNumber('BENCH_SOAK_ROUNDS', 12, { min: 3, max: WATCHED / MOVED - 1 });
const snapshots = process.env.BENCH_SOAK_SNAPSHOTS;
const command = commandOf('soak-memory.mjs', {
  BENCH_PAYMENTS: process.env.BENCH_PAYMENTS,
  BENCH_SOAK_ROUNDS: process.env.BENCH_SOAK_ROUNDS,
});
/** The bound on the heap's growth per round after the first; the section's note says why. */
const FLAT_BYTES_PER_ROUND = 64 * 1024;

const held = { callbacks: true };
const sandbox = createSandbox({
  requisitesDelayMs: 0,
  maxPayments: 2 * payments + 1_000,
  fetch: (input, init) => (held.callbacks ? Promise.resolve(new Response('held')) : fetch(input, init)),
});
// The proxy's calls to the service are counted where they arrive, so that the proxy keeps its default transport.
let upstream = 0;
const served = await serve(
  (request) => {
    if (new URL(request.url).pathname.startsWith('/api/')) upstream += 1;
    return sandbox(request);
  },
  { maxConnections: 5_000 },
);

/** Idle keep-alive sockets of the proxy's upstream pool are closed here, the proxy's own in the child. */
async function sample(child) {
  served.server.closeIdleConnections();
  return { ...(await child.request({ cmd: 'sample' })), upstream };
}

async function soak(kind) {
  const child = await startCompanion('soak-child.mjs', { execArgv: ['--expose-gc'] });
  try {
    const { proxyUrl, callbackUrl } = await child.request({ cmd: 'start', kind, sandboxUrl: served.url });
    const filling = performance.now();
    const set = { child, proxyUrl, callbackUrl, sandbox, sandboxUrl: served.url, held, payments, watched: WATCHED };
    const { watched, firstSweep } = await fillProxy(set);
    const fillMs = performance.now() - filling;
    sandbox.setFaults({ duplicateCallbacks: true });
    const filled = await sample(child);

    const samples = [];
    let paying = [];
    for (let round = 1; round <= rounds; round++) {
      const moving = watched.slice((round - 1) * MOVED, round * MOVED);
      // Streams that are only read and closed: payments still open, a different slice each round.
      const open = watched.slice(round * MOVED);
      const from = ((round - 1) * STREAMS) % Math.max(1, open.length - STREAMS);
      const others = open.slice(from, from + STREAMS - moving.length - paying.length);
      const started = performance.now();
      // The sweep runs while the browsers and the service are busy, as a live proxy's timer would start it.
      const [done, sweep] = await Promise.all([
        soakRound({ proxyUrl, sandbox, polled: watched.slice(0, POLLED), moving, paying, others }),
        child.request({ cmd: 'sweep' }, 120_000),
      ]);
      const ms = performance.now() - started;
      samples.push({ round, ms, ...done, sweep, ...(await sample(child)) });
      if (snapshots && (round === 2 || round === rounds)) {
        await child.request({ cmd: 'snapshot', path: join(snapshots, `soak-${kind}-round-${round}.heapsnapshot`) }, 300_000);
      }
      paying = moving;
    }
    sandbox.setFaults({});
    await child.request({ cmd: 'stop' });
    const finals = watched.filter(({ id }) => sandbox.payment(id)?.state === 'finished').length;
    return { fillMs, firstSweep, filled, samples, finals };
  } finally {
    await child.stop();
  }
}

/**
 * The least-squares line through `ys` over their indices: its slope (units of y per step) and the slope's
 * standard error, from the scatter of the points around the line.
 */
function fitLine(ys) {
  const n = ys.length;
  const meanX = (n - 1) / 2;
  const meanY = ys.reduce((sum, y) => sum + y, 0) / n;
  let sxy = 0;
  let sxx = 0;
  for (let i = 0; i < n; i++) {
    sxy += (i - meanX) * (ys[i] - meanY);
    sxx += (i - meanX) ** 2;
  }
  const slope = sxy / sxx;
  const residuals = ys.reduce((sum, y, i) => sum + (y - meanY - slope * (i - meanX)) ** 2, 0);
  return { slope, error: n > 2 ? Math.sqrt(residuals / (n - 2) / sxx) : Number.NaN };
}

const kBs = (bytes) => `${bytes < 0 ? '-' : '+'}${(Math.abs(bytes) / 1024).toFixed(1)} kB`;

const results = {};
try {
  for (const kind of ['memory', 'sqlite']) results[kind] = await soak(kind);
} finally {
  await served.close();
  sandbox.close();
}

const rows = [];
for (const [kind, r] of Object.entries(results)) {
  const first = r.samples[0];
  const second = r.samples[1];
  const last = r.samples.at(-1);
  r.fit = fitLine(r.samples.slice(1).map((s) => s.heapUsed));
  r.codeFit = fitLine(r.samples.slice(1).map((s) => s.spaces.code_space ?? 0));
  r.requestsPerRound = (last.requests - first.requests) / (rounds - 1);
  r.upstreamPerRound = (last.upstream - first.upstream) / (rounds - 1);
  const flat = r.fit.slope < FLAT_BYTES_PER_ROUND;
  rows.push({
    figure: `heap growth per round over a ${rounds}-round soak, ${kind === 'memory' ? 'memory store' : 'SQLite store'} (after a full GC)`,
    value: `${flat ? 'flat' : 'miss'}: ${kBs(r.fit.slope)}/round`,
    target: `< ${FLAT_BYTES_PER_ROUND / 1024} kB/round`,
    compared:
      `± ${(r.fit.error / 1024).toFixed(1)} kB/round; ${mb(first.heapUsed)} after round 1, ${mb(last.heapUsed)} after round ` +
      `${rounds} (${kBs(last.heapUsed - second.heapUsed)} from round 2); ${r.finals} payments final; ` +
      `${last.subscriptions} stream subscriptions left`,
    verdict: flat ? 'pass' : 'miss',
    command,
  });
}
const { memory, sqlite } = results;
const seconds = (r) => (r.samples.reduce((sum, s) => sum + s.ms, 0) / 1000).toFixed(0);
const requests = Math.round(memory.requestsPerRound);
await report({
  id: 'soak-memory',
  title: `Memory over a bounded soak: ${payments.toLocaleString('en-US')} payments, ${rounds} rounds per store`,
  note:
    `Each store runs in a fresh proxy process holding ${payments.toLocaleString('en-US')} payments, all pending at the start ` +
    `(made in ${(memory.fillMs / 1000).toFixed(0)} s and ${(sqlite.fillMs / 1000).toFixed(0)} s). A round: ${POLLED} status ` +
    `polls, ${STREAMS} event streams opened and closed, ${MOVED} payments put in check and the ${MOVED} of the round before ` +
    'paid by the sandbox (its signed callbacks sent twice), and a reconcile sweep of every payment still followed at the ' +
    `same time: ${requests} requests to the proxy and ${Math.round(memory.upstreamPerRound)} calls from it to the service. The soak took ` +
    `${seconds(memory)} s (memory) and ${seconds(sqlite)} s (SQLite). The slope is the least-squares growth of the heap ` +
    'after a full GC from round 2 on (round 1 warms up code and caches), ± its standard error from the scatter of the ' +
    `samples. Flat means under ${FLAT_BYTES_PER_ROUND / 1024} kB/round: a leak of ${Math.round(FLAT_BYTES_PER_ROUND / requests)} ` +
    'bytes per request to the proxy would cross it, while what is not a leak stays under it: compiled code, which ' +
    `still grew by ${kBs(memory.codeFit.slope)}/round (memory) and ${kBs(sqlite.codeFit.slope)}/round (SQLite), and the ` +
    `payments that turned final, which a store keeps by design (${memory.finals} per store here).`,
  rows,
  raw: { payments, rounds, watched: WATCHED, polled: POLLED, moved: MOVED, streams: STREAMS, results },
});
