// `npm run bench` (after `npm run build`): runs each figure's script in a child process of its own, one after
// another, prints their tables, and writes BENCHMARKS.md at the repository root and bench/results/latest.json.
// Each figure has its value, its target, the figure it is compared with from the same run, pass/miss and the
// command that measures it alone (`node bench/<script>`). Comparisons are ratios within one run; latencies are
// medians and p95 over repeated runs. Nothing here asserts. The default run takes about four minutes.
//
// Knobs (environment variables), for longer or narrower runs:
//   BENCH_ONLY=sizes,latency     run only these scripts (writes results/latest.json, leaves BENCHMARKS.md alone)
//   BENCH_LOAD_SECONDS=5         autocannon duration per target (proxy-cost; store-answer: per target and round, default 3)
//   BENCH_STORE_CREATES=300      stores: creates per store configuration
//   BENCH_POSTGRES_URL=postgres://...  stores: an existing PostgreSQL instead of a throwaway cluster
//   BENCH_LOAD_ROUNDS=5          store-answer: rounds in which hello-world, the bare POST and the proxy take turns
//   BENCH_CONNECTIONS=10         autocannon connections
//   BENCH_PROBE_ROUNDS=5         proxy-cost: rounds in which the sandbox and the proxy take turns on one connection
//   BENCH_FOLLOW_MS=10000        how long the 100 followers follow one payment (60000 for the issue's figure)
//   BENCH_FOLLOWERS=100          followers, half polling, half on the event stream
//   BENCH_STREAMS=1000           open event streams on one proxy process
//   BENCH_FANOUT_ROUNDS=3        rounds of opening them and fanning one change out (the median is shown)
//   BENCH_IDLE_MS=3000           how long the open streams sit idle while their CPU is measured
//   BENCH_FANOUT_WARMUP=1        fan-out rounds of a freshly started proxy, shown apart from the median
//   BENCH_CPU_PROFILE=dir        write CPU profiles of each fan-out (the proxy process and the reading one)
//   BENCH_PAYMENTS=10000         pending payments in the memory / reconcile figures
//   BENCH_MEMORY_VIA=proxy       create every one of them through the proxy (minutes) instead of copying one record
//   BENCH_SOAK_ROUNDS=12         rounds of the memory soak per store (about 3 to 6 s each)
//   BENCH_SOAK_SNAPSHOTS=dir     also write the soak proxy's heap snapshots after round 2 and the last, to compare
//   BENCH_LATENCY_RUNS=20        browser runs per mode, after 2 warm-up runs
//   BENCH_POLL_MS=1000           the element's poll-interval in the polling runs
//   BENCH_FIRST_QR_RUNS=5        page loads per page (ours, Adyen's) and mode (gzip, plain) in the time-to-QR figure
//   CHROME_PATH=/path/to/chrome  the browser for the latency figures
//   BENCH_CONSOLE_PAYMENTS=100000  payments in the SQLite ledger the console lists
//   BENCH_CONSOLE_ROUNDS=200     reads of each console figure
//   BENCH_PG_PAYMENTS=300000     payments in the PostgreSQL ledger the console and the money paths read
//   BENCH_PG_ROUNDS=100          reads of each of its figures
import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { runScript } from './support/child.mjs';
import { markdownTable } from './support/format.mjs';
import { MARKDOWN_COLUMNS, markdownCellsOf } from './support/section.mjs';
import { at, requireBuild } from './support/stack.mjs';

requireBuild();

const SCRIPTS = [
  { id: 'sizes', script: 'sizes.mjs', title: 'Sizes' },
  { id: 'latency', script: 'latency.mjs', title: 'Latency in Chromium' },
  { id: 'first-qr', script: 'first-qr.mjs', title: 'Time to QR on an emulated phone' },
  { id: 'proxy-cost', script: 'proxy-cost.mjs', title: 'Proxy cost' },
  { id: 'create-walk', script: 'create-walk.mjs', title: 'Create walk' },
  { id: 'store-answer', script: 'store-answer.mjs', title: 'A final status from the store' },
  { id: 'stores', script: 'stores.mjs', title: 'Stores side by side' },
  { id: 'followers', script: 'followers.mjs', title: 'Upstream load' },
  { id: 'streams', script: 'streams.mjs', title: 'Open event streams' },
  { id: 'memory', script: 'memory.mjs', title: 'Memory' },
  { id: 'soak-memory', script: 'soak-memory.mjs', title: 'Memory over a soak' },
  { id: 'reconcile', script: 'reconcile.mjs', title: 'Reconcile sweep' },
  { id: 'console-list', script: 'console-list.mjs', title: 'Console list' },
  { id: 'postgres-console', script: 'postgres-console.mjs', title: 'The PostgreSQL store at scale' },
];
const only = process.env.BENCH_ONLY?.split(',')
  .map((id) => id.trim().replace(/\.mjs$/, ''))
  .filter(Boolean);
const unknown = only?.filter((id) => !SCRIPTS.some((s) => s.id === id)) ?? [];
if (unknown.length) {
  console.error(`BENCH_ONLY names no script ${unknown.join(', ')}; choose from ${SCRIPTS.map((s) => s.id).join(', ')}.`);
  process.exit(1);
}
const chosen = only ? SCRIPTS.filter((s) => only.includes(s.id)) : SCRIPTS;

const started = new Date();
const machine = {
  node: process.version,
  cpu: cpus()[0]?.model ?? 'unknown',
  cores: cpus().length,
  loadAtStart: loadavg()
    .map((n) => n.toFixed(2))
    .join(' '),
  commit: gitCommit(),
};
const sections = [];
for (const { id, script, title } of chosen) {
  const t = performance.now();
  try {
    const section = await runScript(script, { timeoutMs: 15 * 60_000 });
    sections.push({ ...section, seconds: (performance.now() - t) / 1000 });
  } catch (error) {
    console.error(`\n${script} failed: ${error.message}`);
    sections.push({
      id,
      title,
      seconds: (performance.now() - t) / 1000,
      note: `Not measured in this run: ${error.message}`,
      rows: [{ figure: title, value: 'failed', verdict: 'n/a', command: `node bench/${script}` }],
      raw: {},
    });
  }
}
const totalSeconds = (Date.now() - started.getTime()) / 1000;

mkdirSync(at('bench/results/'), { recursive: true });
writeFileSync(
  at('bench/results/latest.json'),
  `${JSON.stringify({ at: started.toISOString(), seconds: totalSeconds, machine, sections }, null, 2)}\n`,
);
if (only) {
  console.log(`\nSaved to bench/results/latest.json (BENCH_ONLY: BENCHMARKS.md left as it was). ${totalSeconds.toFixed(0)} s.`);
} else {
  writeFileSync(at('BENCHMARKS.md'), benchmarksMarkdown());
  console.log(`\nWrote BENCHMARKS.md and bench/results/latest.json in ${totalSeconds.toFixed(0)} s.`);
}

function gitCommit() {
  try {
    return execFileSync('git', ['rev-parse', '--short', 'HEAD'], {
      cwd: at('.'),
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
    }).trim();
  } catch {
    return undefined;
  }
}

function benchmarksMarkdown() {
  const checked = sections.flatMap((s) =>
    s.rows.filter((r) => r.verdict === 'pass' || r.verdict === 'miss').map((r) => ({ ...r, section: s })),
  );
  const passed = checked.filter((r) => r.verdict === 'pass').length;
  const lines = [
    '# Benchmarks',
    '',
    `Written by \`npm run bench\` on ${started.toISOString().slice(0, 16).replace('T', ' ')} UTC` +
      `${machine.commit ? ` at commit ${machine.commit}` : ''}: Node ${machine.node}, ${machine.cores} x ${machine.cpu}, ` +
      `load average ${machine.loadAtStart} at the start; the run took ${totalSeconds.toFixed(0)} s. Run \`npm run build\` ` +
      'first. Each figure can be measured alone with the command in its table; the knobs for longer runs are listed at ' +
      'the top of bench/run.mjs. Comparisons are ratios of figures measured in the same run, latencies are medians (p50) ' +
      'and p95 over repeated runs. The machine is shared, so absolute figures move from run to run; the ratios move less.',
    '',
    `## Targets: ${passed} of ${checked.length} met`,
    '',
    markdownTable(
      ['figure', 'value', 'target', 'verdict'],
      checked.map((r) => [r.figure, r.value, r.target ?? '', r.verdict]),
    ),
  ];
  for (const section of sections) {
    lines.push(
      '',
      `## ${section.title}`,
      '',
      markdownTable(MARKDOWN_COLUMNS, section.rows.map(markdownCellsOf)),
      '',
      `${section.note ? `${section.note} ` : ''}(${section.seconds.toFixed(0)} s in this run.)`,
    );
  }
  return `${lines.join('\n')}\n`;
}
