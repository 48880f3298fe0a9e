// The load generator, in a process of its own so that it does not share an event loop with the server it
// measures. 'cannon' runs autocannon (N connections for a bounded time: req/s, p50/p99 in whole ms, as autocannon
// records them); 'probe' sends requests one after another over one kept-alive socket and times each with the
// high-resolution clock, for latencies below a millisecond. Both are bounded in requests and seconds.
import http from 'node:http';
import autocannon from 'autocannon';
import { serveRequests } from './child.mjs';
import { summarize } from './stats.mjs';

async function cannon({ url, method = 'POST', headers = {}, body, connections = 10, durationSec = 5 }) {
  const result = await autocannon({ url, method, headers, body, connections, duration: durationSec, timeout: 10 });
  return {
    connections,
    durationSec,
    requests: result.requests.total,
    rps: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    non2xx: result.non2xx,
    errors: result.errors + result.timeouts,
  };
}

async function probe({ url, method = 'POST', headers = {}, body, count = 2_000, maxMs = 3_000, warmup = 100 }) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  const once = () =>
    new Promise((resolve, reject) => {
      const started = process.hrtime.bigint();
      const request = http.request(url, { method, headers, agent }, (response) => {
        response.resume();
        response.once('end', () => resolve({ status: response.statusCode, ms: Number(process.hrtime.bigint() - started) / 1e6 }));
      });
      request.setTimeout(10_000, () => request.destroy(new Error('no answer within 10 s')));
      request.once('error', reject);
      request.end(body);
    });
  for (let i = 0; i < warmup; i++) await once();
  const samples = [];
  let failed = 0;
  const deadline = performance.now() + maxMs;
  while (samples.length + failed < count && performance.now() < deadline) {
    const { status, ms } = await once();
    if (status >= 200 && status < 300) samples.push(ms);
    else failed += 1;
  }
  agent.destroy();
  return { ...summarize(samples), failed };
}

serveRequests({ cannon, probe });
