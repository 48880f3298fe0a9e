// Figure 5: 1,000 open event streams on one proxy process. The proxy (with the sandbox) runs in a child with
// --expose-gc; this process opens the streams over loopback, each reading until its first event. Heap per
// stream is the growth of the heap (after a full GC) from before the streams to when all are open, divided by
// their number; CPU per stream is the proxy process's CPU time to open them, and its CPU per second while they
// sit idle. Fan-out: this process asks the sandbox to mark the payment paid and times until the last stream has
// the new state. BENCH_STREAMS (default 1,000), BENCH_FANOUT_ROUNDS (default 3, the median is shown), after
// BENCH_FANOUT_WARMUP rounds (default 1) that are shown apart: a fresh process runs the fan-out's code for the
// first time, unoptimised, and a proxy that has served a while has not;
// BENCH_CPU_PROFILE=<dir> writes a CPU profile of each fan-out, of the proxy process and of this one (the reading
// side is part of the figure), as fanout-<round>-{proxy,reader}.cpuprofile.
import { mkdirSync } from 'node:fs';
import http from 'node:http';
import { join, resolve } from 'node:path';
import { startCpuProfile } from './support/cpu-profile.mjs';
import { startCompanion } from './support/child.mjs';
import { bytesPer, ms, verdict } from './support/format.mjs';
import { commandOf, envNumber, report } from './support/section.mjs';
import { median, summarize } from './support/stats.mjs';

const streams = envNumber('BENCH_STREAMS', 1_000, { min: 1, max: 10_000 });
const rounds = envNumber('BENCH_FANOUT_ROUNDS', 3, { min: 1, max: 50 });
const warmups = envNumber('BENCH_FANOUT_WARMUP', 1, { min: 0, max: 10 });
const idleMs = envNumber('BENCH_IDLE_MS', 3_000, { min: 500, max: 600_000 });
const command = commandOf('streams.mjs', {
  BENCH_STREAMS: process.env.BENCH_STREAMS,
  BENCH_FANOUT_WARMUP: process.env.BENCH_FANOUT_WARMUP,
});
const BASE_PATH = '/payin';
const profileDir = process.env.BENCH_CPU_PROFILE?.trim() ? resolve(process.env.BENCH_CPU_PROFILE.trim()) : undefined;
if (profileDir) mkdirSync(profileDir, { recursive: true });

/**
 * Opens one stream through `agent`; resolves when its first event is in, and `second` when the next one arrives.
 * The agent keeps every connection alive, as a browser's EventSource does: with `Connection: close` (or a pool
 * that keeps only 256 idle sockets) this one process, standing in for a thousand browsers, spent 100-170 ms of
 * the fan-out closing the sockets of streams that had ended (a CPU profile of it) while later streams' bytes
 * waited to be read.
 */
function openStream(url, agent) {
  let text = '';
  let firstAt;
  let secondAt;
  let resolveFirst;
  let resolveSecond;
  const first = new Promise((resolve) => (resolveFirst = resolve));
  const second = new Promise((resolve) => (resolveSecond = resolve));
  const request = http.get(url, { agent, headers: { accept: 'text/event-stream' } }, (response) => {
    if (response.statusCode !== 200) {
      resolveFirst(new Error(`status ${response.statusCode}`));
      response.resume();
      return;
    }
    response.setEncoding('utf8');
    response.on('data', (chunk) => {
      text += chunk;
      const events = text.split('event: payment').length - 1;
      if (events >= 1 && firstAt === undefined) resolveFirst((firstAt = performance.now()));
      if (events >= 2 && secondAt === undefined) resolveSecond((secondAt = performance.now()));
    });
    response.on('error', () => {});
  });
  request.on('error', (error) => resolveFirst(error));
  return { first, second, close: () => request.destroy() };
}

async function within(promise, timeoutMs, what) {
  let timer;
  const timeout = new Promise((_, reject) => (timer = setTimeout(() => reject(new Error(`${what} took over ${timeoutMs} ms`)), timeoutMs)));
  try {
    return await Promise.race([promise, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

const server = await startCompanion('stream-server-child.mjs', { execArgv: ['--expose-gc'] });
/** Every round, the warm-up ones first. */
const all = [];
try {
  const { proxyUrl, sandboxUrl } = await server.request({ cmd: 'start', maxConnections: streams + 500 });
  // The first fetch of a process loads its HTTP client (tens of ms): not a part of any round's fan-out.
  await (await fetch(`${sandboxUrl}/`)).arrayBuffer();
  for (let round = 0; round < warmups + rounds; round++) {
    const { paymentId, token } = await server.request({ cmd: 'create' });
    const url = `${proxyUrl}${BASE_PATH}/events?paymentId=${encodeURIComponent(paymentId)}&token=${encodeURIComponent(token)}`;
    const before = await server.request({ cmd: 'sample' });
    const opening = performance.now();
    const agent = new http.Agent({ keepAlive: true, maxSockets: Number.POSITIVE_INFINITY, maxFreeSockets: streams });
    const open = Array.from({ length: streams }, () => openStream(url, agent));
    const firsts = await within(Promise.all(open.map((s) => s.first)), 60_000, `opening ${streams} streams`);
    const failed = firsts.filter((f) => f instanceof Error);
    if (failed.length) throw new Error(`${failed.length} streams failed to open: ${failed[0].message}`);
    const openedMs = performance.now() - opening;
    const opened = await server.request({ cmd: 'sample' });
    await new Promise((resolve) => setTimeout(resolve, idleMs));
    const idle = await server.request({ cmd: 'sample' });

    await server.request({ cmd: 'callbacks' });
    let profile;
    if (profileDir) {
      await server.request({ cmd: 'profileStart' });
      profile = await startCpuProfile();
    }
    const proxyCpuBefore = await server.request({ cmd: 'cpu' });
    const readerCpuBefore = process.cpuUsage();
    const changed = performance.now();
    const paid = await fetch(`${sandboxUrl}/sandbox/payments/${encodeURIComponent(paymentId)}/pay`, { method: 'POST' });
    if (!paid.ok) throw new Error(`the sandbox refused the payment: ${paid.status}`);
    const arrivals = await within(Promise.all(open.map((s) => s.second)), 60_000, 'the fan-out');
    const lags = arrivals.map((at) => at - changed);
    const readerCpu = process.cpuUsage(readerCpuBefore);
    const proxyCpuMicros = (await server.request({ cmd: 'cpu' })) - proxyCpuBefore;
    if (profile) {
      await profile.stop(join(profileDir, `fanout-${round}-reader.cpuprofile`));
      await server.request({ cmd: 'profileStop', path: join(profileDir, `fanout-${round}-proxy.cpuprofile`) });
    }
    // The callback that carried "paid" (the last one to reach the proxy), on the shared epoch clock.
    const callback = (await server.request({ cmd: 'callbacks' })).at(-1);
    const changedEpoch = performance.timeOrigin + changed;
    for (const s of open) s.close();
    agent.destroy();
    all.push({
      openedMs,
      heapPerStream: (opened.heapUsed - before.heapUsed) / streams,
      rssPerStream: (opened.rss - before.rss) / streams,
      cpuOpenMicrosPerStream: (opened.cpuMicros - before.cpuMicros) / streams,
      idleCpuMicrosPerStreamPerSecond: ((idle.cpuMicros - opened.cpuMicros) / streams / (idle.at - opened.at)) * 1000,
      fanout: summarize(lags),
      fanoutProxyCpuMs: proxyCpuMicros / 1000,
      fanoutReaderCpuMs: (readerCpu.user + readerCpu.system) / 1000,
      callbackArrivedMs: callback ? callback.arrived - changedEpoch : undefined,
      callbackAnsweredMs: callback ? callback.answered - changedEpoch : undefined,
      callbackCpuMs: callback ? callback.cpuMicros / 1000 : undefined,
    });
    const r = all.at(-1);
    // Each round on stderr, since the median hides how much a loaded machine moves the figure.
    console.error(
      `${round < warmups ? 'warm-up' : 'round'} ${round + 1}: last ${ms(r.fanout.max)}, first ${ms(r.fanout.min)}, callback answered ${ms(r.callbackAnsweredMs)}, ` +
        `CPU proxy ${ms(r.fanoutProxyCpuMs)} (callback ${ms(r.callbackCpuMs)}) / reader ${ms(r.fanoutReaderCpuMs)}`,
    );
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  const results = all.slice(warmups);
  const cold = all[0];
  const pick = (f) => median(results.map(f));
  const fanoutLast = pick((r) => r.fanout.max);
  await report({
    id: 'streams',
    title: `${streams.toLocaleString('en-US')} open event streams on one proxy process (median of ${rounds} rounds)`,
    note:
      `The streams are opened from a second process over loopback; the proxy process holds the sandbox too. Opening all ` +
      `${streams} took ${ms(
        pick((r) => r.openedMs),
        0,
      )}. Fan-out runs from the request that marks the payment paid at the ` +
      'sandbox, through its callback to the proxy, to the last stream that received the new state; the proxy answers the ' +
      'callback only after its share of the fan-out has run. Resident memory per stream is in results/latest.json ' +
      '(too noisy to show). Idle CPU is measured ' +
      `over ${idleMs} ms with every stream open (pings are every 8 s).`,
    rows: [
      {
        figure: `fan-out of one state change to all ${streams} streams (last stream)`,
        value: ms(fanoutLast),
        target: '<= 100 ms',
        compared: `first stream ${ms(pick((r) => r.fanout.min))}, p50 ${ms(pick((r) => r.fanout.p50))}`,
        verdict: verdict(fanoutLast <= 100),
        command,
      },
      ...(warmups
        ? [
            {
              figure: 'the same, the first fan-out of a freshly started proxy process',
              value: ms(cold.fanout.max),
              target: 'reported',
              compared: 'the warm-up round, not in the median: the code runs for the first time, unoptimised',
              command,
            },
          ]
        : []),
      {
        figure: "of which: the sandbox's callback reaches the proxy / the proxy has answered it",
        value: `${ms(pick((r) => r.callbackArrivedMs))} / ${ms(pick((r) => r.callbackAnsweredMs))}`,
        target: 'reported',
        compared: 'from the request that marks the payment paid',
        command,
      },
      {
        figure: 'CPU spent on the fan-out: the proxy process / this process reading the streams',
        value: `${ms(pick((r) => r.fanoutProxyCpuMs))} / ${ms(pick((r) => r.fanoutReaderCpuMs))}`,
        target: 'reported',
        compared:
          `from the pay request to the last arrival (the proxy's read just after, so it includes ending the streams); ` +
          `the proxy's from the callback's arrival to its answer: ${ms(pick((r) => r.callbackCpuMs))}`,
        command,
      },
      { figure: 'heap per open stream (after a full GC)', value: bytesPer(pick((r) => r.heapPerStream)), target: 'reported', command },
      {
        figure: 'CPU of the proxy process to open one stream',
        value: ms(pick((r) => r.cpuOpenMicrosPerStream) / 1000, 3),
        target: 'reported',
        command,
      },
      {
        figure: 'CPU per open stream while idle, per second',
        value: `${pick((r) => r.idleCpuMicrosPerStreamPerSecond).toFixed(2)} us`,
        target: 'reported',
        command,
      },
    ],
    raw: { streams, rounds, warmups, idleMs, results, warmup: all.slice(0, warmups) },
  });
} finally {
  await server.request({ cmd: 'stop' }).catch(() => {});
  await server.stop();
}
