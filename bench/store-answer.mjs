// Figure 3: a final payment's status answered from the store, against a bare node:http hello-world in the same
// process and the same run, both under the same load from a second process (autocannon, 10 connections,
// BENCH_LOAD_SECONDS per target and round, default 3). A final payment never asks the service again, so this is
// the proxy's own ceiling: routing, the token check, the rate-limit counter, the store read and the JSON answer.
// The targets take turns over BENCH_LOAD_ROUNDS rounds (default 5) and the share is the median of the rounds'
// shares: on a shared machine another process's burst then lands in one round's pair, not in one whole target.
import { createHmac } from 'node:crypto';
import { createServer } from 'node:http';
import { startCompanion } from './support/child.mjs';
import { ms, ratio, verdict } from './support/format.mjs';
import { commandOf, envNumber, report } from './support/section.mjs';
import { BASE_PATH, createPayment, signBody, startStack, statusTarget, waitForStatus } from './support/stack.mjs';
import { median } from './support/stats.mjs';

const seconds = envNumber('BENCH_LOAD_SECONDS', 3, { min: 1, max: 120 });
const rounds = envNumber('BENCH_LOAD_ROUNDS', 5, { min: 1, max: 20 });
const connections = envNumber('BENCH_CONNECTIONS', 10, { min: 1, max: 500 });
const command = commandOf('store-answer.mjs', {
  BENCH_LOAD_SECONDS: process.env.BENCH_LOAD_SECONDS,
  BENCH_LOAD_ROUNDS: process.env.BENCH_LOAD_ROUNDS,
});

/**
 * What one HMAC costs, three ways, one call after another: as the package computes it (signBody: node:crypto
 * where the runtime has it, see src/shared/hmac.ts), with Web Crypto and its key kept, and with node:crypto
 * directly. A first token check, a signed request and a verified answer each pay one.
 */
async function hmacCosts(rounds = 3_000) {
  const secret = 'a-derived-token-key-of-64-hex-characters-0123456789abcdef01234567';
  const key = await crypto.subtle.importKey('raw', new TextEncoder().encode(secret), { name: 'HMAC', hash: 'SHA-256' }, false, ['sign']);
  const data = new TextEncoder().encode('6b0403ef2bf20');
  const time = async (operation) => {
    for (let i = 0; i < 200; i++) await operation();
    const started = performance.now();
    for (let i = 0; i < rounds; i++) await operation();
    return ((performance.now() - started) / rounds) * 1000;
  };
  return {
    packageMicros: await time(() => signBody(secret, '6b0403ef2bf20')),
    keptKeyMicros: await time(() => crypto.subtle.sign('HMAC', key, data)),
    nodeCryptoMicros: await time(() => createHmac('sha256', secret).update('6b0403ef2bf20').digest('hex')),
  };
}

const stack = await startStack({ sockets: true });
const hello = createServer((_request, response) => {
  response.writeHead(200, { 'content-type': 'text/plain' });
  response.end('hello world');
});
await new Promise((resolve) => hello.listen(0, '127.0.0.1', resolve));
// The least a JSON POST costs on node:http: read the body, parse it, answer JSON with the proxy's headers. The
// status answer of the payment is taken once, below, so that the bytes written are the proxy's own.
let echoed = '{}';
const bare = createServer((request, response) => {
  const chunks = [];
  request.on('data', (chunk) => chunks.push(chunk));
  request.on('end', () => {
    JSON.parse(Buffer.concat(chunks).toString('utf8'));
    response.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store', vary: 'Origin' });
    response.end(echoed);
  });
});
await new Promise((resolve) => bare.listen(0, '127.0.0.1', resolve));
const load = await startCompanion('load-child.mjs');
try {
  const created = await createPayment(stack);
  await waitForStatus(stack, created, (p) => p.state === 'pending');
  stack.sandbox.act(created.payment.id, 'pay');
  await waitForStatus(stack, created, (p) => p.state === 'finished');

  const store = statusTarget(stack, created);
  echoed = await (await fetch(store.url, { method: 'POST', headers: store.headers, body: store.body })).text();
  const targets = {
    hello: { url: `http://127.0.0.1:${hello.address().port}/`, method: 'GET' },
    bare: { ...store, url: `http://127.0.0.1:${bare.address().port}/` },
    store,
  };
  const results = {};
  const before = stack.calls.status;
  for (const [name, target] of Object.entries(targets)) {
    results[name] = { probe: await load.request({ cmd: 'probe', ...target, count: 2_000, maxMs: 2_000 }), rounds: [] };
  }
  for (let round = 0; round < rounds; round++) {
    for (const [name, target] of Object.entries(targets)) {
      results[name].rounds.push(await load.request({ cmd: 'cannon', ...target, connections, durationSec: seconds }, (seconds + 30) * 1000));
    }
  }
  const upstreamCalls = stack.calls.status - before;
  const answered = results.store.rounds.reduce((sum, r) => sum + r.requests, 0);
  /** Each round's req/s of `a` over `b`'s in the same round, and their median. */
  const shares = (a, b) => results[a].rounds.map((r, i) => r.rps / results[b].rounds[i].rps);
  const rpsOf = (name) => median(results[name].rounds.map((r) => r.rps));
  const roundOf = (name) => results[name].rounds.find((r) => r.rps === rpsOf(name));
  const storeShares = shares('store', 'hello');
  const share = median(storeShares);
  const ofBare = median(shares('store', 'bare'));
  const bareShare = median(shares('bare', 'hello'));
  const percents = (values) => values.map((v) => `${(v * 100).toFixed(0)}%`).join(', ');
  const hmac = await hmacCosts();
  await report({
    id: 'store-answer',
    title: "A final payment's status from the store vs a bare node:http hello-world and a bare JSON POST (same process, same run)",
    note:
      `Load: autocannon in a second process, ${connections} connections for ${seconds} s against each server in turn, ` +
      `${rounds} rounds; shares are the median of the rounds' shares, req/s the median round. ` +
      `The proxy asked the sandbox ${upstreamCalls} times while it answered ${answered} requests.`,
    rows: [
      {
        figure: `req/s of POST ${BASE_PATH}/status for a final payment, share of hello-world`,
        value: `${Math.round(rpsOf('store'))} (${(share * 100).toFixed(0)}%)`,
        target: '>= 50%',
        compared: `hello-world ${Math.round(rpsOf('hello'))} req/s (${ratio(share)}); rounds: ${percents(storeShares)}`,
        verdict: verdict(share >= 0.5),
        command,
      },
      {
        figure: 'the same, share of a bare node:http JSON POST (reads the body, parses it, answers the same bytes)',
        value: `${(ofBare * 100).toFixed(0)}%`,
        target: 'reported',
        compared: `bare JSON POST ${Math.round(rpsOf('bare'))} req/s, itself ${(bareShare * 100).toFixed(0)}% of hello-world`,
        command,
      },
      {
        figure: 'p50 / p99 under load (the median round)',
        value: `${roundOf('store').p50} / ${roundOf('store').p99} ms`,
        compared: `hello-world ${roundOf('hello').p50} / ${roundOf('hello').p99} ms`,
        command,
      },
      {
        figure: 'p50, one connection',
        value: ms(results.store.probe.p50, 3),
        compared: `hello-world ${ms(results.hello.probe.p50, 3)}`,
        command,
      },
      {
        figure: 'one HMAC as the package computes it (signBody)',
        value: `${hmac.packageMicros.toFixed(1)} us`,
        target: 'reported',
        compared: `Web Crypto, key kept: ${hmac.keptKeyMicros.toFixed(0)} us; node:crypto directly: ${hmac.nodeCryptoMicros.toFixed(1)} us`,
        command,
      },
    ],
    raw: { ...results, hmac },
  });
} finally {
  await load.stop();
  for (const server of [hello, bare]) {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
  await stack.close();
}
