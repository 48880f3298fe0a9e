// Figure 2, the proxy's cost: POST /status for one pending payment through the proxy (node adapter `serve()`)
// against the same signed request straight to the sandbox, both on loopback, the load from a second process
// (support/load-child.mjs). Two proxies: one whose coalescing window is 0, so that every request that finds no
// call in flight asks the sandbox (the hop itself), and one with the default 3 s window (what a shop runs).
// Latency added is measured on one connection, request after request (high-resolution clock), in
// BENCH_PROBE_ROUNDS rounds (default 5) where the sandbox and the proxy take turns: the figure is the median of the
// rounds' differences, since one pair of p50s on a shared machine moved between 0.5 and 1.7 ms. Req/s and p50/p99
// under load with autocannon (10 connections, BENCH_LOAD_SECONDS, default 5).
import { startCompanion } from './support/child.mjs';
import { ms, ratio, verdict } from './support/format.mjs';
import { commandOf, envNumber, report } from './support/section.mjs';
import { median } from './support/stats.mjs';
import { createPayment, signedStatusRequest, startStack, statusTarget, waitForStatus } from './support/stack.mjs';

const seconds = envNumber('BENCH_LOAD_SECONDS', 5, { min: 1, max: 120 });
const connections = envNumber('BENCH_CONNECTIONS', 10, { min: 1, max: 500 });
const probeRounds = envNumber('BENCH_PROBE_ROUNDS', 5, { min: 1, max: 50 });
const command = commandOf('proxy-cost.mjs', { BENCH_LOAD_SECONDS: process.env.BENCH_LOAD_SECONDS });

const hop = await startStack({ sockets: true, timeouts: { coalesceMs: 0 } });
const shared = await startStack({ sockets: true });
const load = await startCompanion('load-child.mjs');
try {
  const pending = (p) => p.state === 'pending';
  const a = await createPayment(hop);
  await waitForStatus(hop, a, pending);
  const b = await createPayment(shared);
  await waitForStatus(shared, b, pending);

  const targets = {
    direct: { url: `${hop.sandboxUrl}/api/v2/status`, ...(await signedStatusRequest(a.payment.id)) },
    hop: statusTarget(hop, a),
    shared: statusTarget(shared, b),
  };
  const results = {};
  for (const [name, target] of Object.entries(targets)) {
    const calls = name === 'shared' ? shared.calls : hop.calls;
    const before = calls.status;
    const probe = await load.request({ cmd: 'probe', ...target, count: 2_000, maxMs: 3_000 });
    const cannon = await load.request({ cmd: 'cannon', ...target, connections, durationSec: seconds }, (seconds + 30) * 1000);
    results[name] = { probe, cannon, upstreamCalls: calls.status - before };
  }
  const { direct, hop: through, shared: coalesced } = results;
  const pairs = [];
  for (let round = 0; round < probeRounds; round++) {
    const probe = (target) => load.request({ cmd: 'probe', ...target, count: 1_000, maxMs: 1_500 });
    pairs.push({ direct: (await probe(targets.direct)).p50, through: (await probe(targets.hop)).p50 });
  }
  const added = median(pairs.map((p) => p.through - p.direct));
  const directP50 = median(pairs.map((p) => p.direct));
  const throughP50 = median(pairs.map((p) => p.through));
  results.addedRounds = pairs;
  const load10 = `${connections} connections, ${seconds} s`;
  await report({
    id: 'proxy-cost',
    title: 'Proxy cost: POST /status through the proxy vs straight to the sandbox (loopback, load from a second process)',
    note:
      'The sandbox and the proxy run in one process, the load in another. "One connection" sends requests one after ' +
      'another and times each with the high-resolution clock (p50 over up to 2,000 requests or 3 s). Under load, ' +
      'autocannon records whole milliseconds. With the default 3 s coalescing window most status requests are ' +
      'answered from the store without asking the sandbox, so they can be cheaper than the sandbox itself.',
    rows: [
      {
        figure: 'latency the proxy adds, p50, one connection (every request asks the sandbox)',
        value: ms(added, 3),
        target: '<= 1 ms',
        compared:
          `median of ${probeRounds} rounds: sandbox direct p50 ${ms(directP50, 3)}; through the proxy ${ms(throughP50, 3)}; ` +
          `rounds: ${pairs.map((p) => ms(p.through - p.direct, 2)).join(', ')}`,
        verdict: verdict(added <= 1),
        command,
      },
      {
        figure: 'p99, one connection, through the proxy (every request asks the sandbox)',
        value: ms(through.probe.p99, 3),
        compared: `sandbox direct ${ms(direct.probe.p99, 3)}`,
        command,
      },
      {
        figure: `req/s through the proxy, every request that finds none in flight asks the sandbox (${load10})`,
        value: `${Math.round(through.cannon.rps)} (${ratio(through.cannon.rps / direct.cannon.rps)} of direct)`,
        target: 'as a ratio',
        compared: `sandbox direct ${Math.round(direct.cannon.rps)} req/s`,
        command,
      },
      {
        figure: `p50 / p99 under load, through the proxy, every request asks (${load10})`,
        value: `${through.cannon.p50} / ${through.cannon.p99} ms`,
        compared: `sandbox direct ${direct.cannon.p50} / ${direct.cannon.p99} ms`,
        command,
      },
      {
        figure: `req/s through the proxy, default 3 s coalescing (${load10})`,
        value: `${Math.round(coalesced.cannon.rps)} (${ratio(coalesced.cannon.rps / direct.cannon.rps)} of direct)`,
        target: 'as a ratio',
        compared: `sandbox direct ${Math.round(direct.cannon.rps)} req/s; ${coalesced.upstreamCalls} sandbox calls for ${coalesced.cannon.requests + coalesced.probe.n} requests`,
        command,
      },
      {
        figure: `p50 / p99 under load, default 3 s coalescing (${load10}); one connection p50`,
        value: `${coalesced.cannon.p50} / ${coalesced.cannon.p99} ms; ${ms(coalesced.probe.p50, 3)}`,
        compared: `sandbox direct ${direct.cannon.p50} / ${direct.cannon.p99} ms; ${ms(direct.probe.p50, 3)}`,
        command,
      },
    ],
    raw: results,
  });
} finally {
  await load.stop();
  await hop.close();
  await shared.close();
}
