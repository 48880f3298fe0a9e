// The stores side by side, in one run: creates/s and final-status answers/s of the proxy on memory, SQLite and
// PostgreSQL (one server, and two servers on one database), each server a process of its own on a loopback
// socket, all asking one sandbox. Creates: BENCH_STORE_CREATES fresh orders (default 300), 10 at a time, spread
// over the servers after 50 untimed ones, timed from the first to the last answer (each create also costs the
// sandbox a payment and the proxy a status call, the same for every store). Final-status answers: autocannon from
// a second process, BENCH_CONNECTIONS connections for BENCH_LOAD_SECONDS (default 3) per server at once, on a
// payment already final. PostgreSQL is a throwaway cluster started here (test/tools/postgres-server.mjs), or
// BENCH_POSTGRES_URL. On a shared machine the creates figure moves with the load: read it within one run.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startCompanion } from './support/child.mjs';
import { commandOf, envNumber, report } from './support/section.mjs';
import { BASE_PATH, createSandbox, serve } from './support/stack.mjs';

const creates = envNumber('BENCH_STORE_CREATES', 300, { min: 10, max: 100_000 });
const seconds = envNumber('BENCH_LOAD_SECONDS', 3, { min: 1, max: 120 });
const connections = envNumber('BENCH_CONNECTIONS', 10, { min: 1, max: 500 });
const command = commandOf('stores.mjs', {
  BENCH_STORE_CREATES: process.env.BENCH_STORE_CREATES,
  BENCH_LOAD_SECONDS: process.env.BENCH_LOAD_SECONDS,
});

const dir = mkdtempSync(join(tmpdir(), 'payin-bench-stores-'));
const sandbox = createSandbox({ requisitesDelayMs: 0, maxPayments: 1_000_000 });
const service = await serve(sandbox);
const { startPostgres } = await import(new URL('../test/tools/postgres-server.mjs', import.meta.url).href);
const postgres = process.env.BENCH_POSTGRES_URL ? undefined : await startPostgres();
const postgresUrl = process.env.BENCH_POSTGRES_URL ?? postgres.url;
const load = await startCompanion('load-child.mjs');

const CONFIGS = [
  { name: 'memory, one server', servers: 1, storeUrl: 'memory:' },
  { name: 'SQLite, one server', servers: 1, storeUrl: `sqlite:${join(dir, 'bench.db')}` },
  { name: 'PostgreSQL, one server', servers: 1, storeUrl: postgresUrl },
  { name: 'PostgreSQL, two servers', servers: 2, storeUrl: postgresUrl },
];

const post = async (url, body) => {
  const answer = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  return { status: answer.status, body: await answer.json() };
};

/** Creates/s and final-status answers/s of `servers` proxies on `storeUrl`. */
async function measure({ name, servers: count, storeUrl }, index) {
  const servers = [];
  try {
    for (let i = 0; i < count; i++) {
      const server = await startCompanion('store-server-child.mjs');
      servers.push({ ...server, url: (await server.request({ cmd: 'start', storeUrl, sandboxUrl: service.url })).url });
    }
    /** `total` creates of fresh orders named `<prefix>-<n>`, 10 at a time, spread over the servers; their seconds. */
    const createAll = async (prefix, total) => {
      let next = 0;
      const started = performance.now();
      await Promise.all(
        Array.from({ length: 10 }, async () => {
          while (next < total) {
            const n = next++;
            const url = `${servers[n % count].url}${BASE_PATH}/payments`;
            const { status, body } = await post(url, { orderId: `${prefix}-${n}`, method: 'upi' });
            if (status !== 201) throw new Error(`${name}: create answered ${status}: ${JSON.stringify(body)}`);
          }
        }),
      );
      return (performance.now() - started) / 1000;
    };
    // A warm-up round first, untimed: the servers' code is compiled and their connections are open when timing starts.
    await createAll(`W${index}`, 50);
    const createsPerSecond = creates / (await createAll(`S${index}`, creates));

    const { body: created } = await post(`${servers[0].url}${BASE_PATH}/payments`, { orderId: `S${index}-final`, method: 'upi' });
    sandbox.act(created.payment.id, 'pay');
    const statusBody = JSON.stringify({ paymentId: created.payment.id, token: created.token });
    for (let round = 0; round < 500; round++) {
      if ((await post(`${servers[0].url}${BASE_PATH}/status`, JSON.parse(statusBody))).body.payment?.final) break;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    const cannons = await Promise.all(
      servers.map((server) =>
        load.request(
          {
            cmd: 'cannon',
            url: `${server.url}${BASE_PATH}/status`,
            headers: { 'content-type': 'application/json' },
            body: statusBody,
            connections,
            durationSec: seconds,
          },
          (seconds + 30) * 1000,
        ),
      ),
    );
    const failed = cannons.reduce((sum, c) => sum + c.non2xx + c.errors, 0);
    return { name, createsPerSecond, statusPerSecond: cannons.reduce((sum, c) => sum + c.rps, 0), failed, cannons };
  } finally {
    for (const server of servers) await server.stop();
  }
}

try {
  const results = [];
  for (const [index, config] of CONFIGS.entries()) results.push(await measure(config, index));
  const memory = results[0];
  const share = (value, of) => `${((value / of) * 100).toFixed(0)}% of memory`;
  await report({
    id: 'stores',
    title: 'Stores side by side: creates/s and final-status answers/s (same run)',
    note:
      `Creates: ${creates} fresh orders, 10 at a time, spread over the servers, through the real sandbox on loopback. ` +
      `Final status: autocannon in a second process, ${connections} connections per server for ${seconds} s, all servers at once. ` +
      `Each server is a process of its own; the SQLite store runs on ${process.versions.node.split('.')[0] >= 22 ? 'node:sqlite' : 'better-sqlite3'} here. ` +
      `Answers that were not 2xx: ${results.map((r) => `${r.name} ${r.failed}`).join(', ')}.`,
    rows: results.flatMap((r) => [
      {
        figure: `creates/s, ${r.name}`,
        value: r.createsPerSecond.toFixed(0),
        target: 'reported',
        compared: share(r.createsPerSecond, memory.createsPerSecond),
        command,
      },
      {
        figure: `final-status answers/s, ${r.name}`,
        value: r.statusPerSecond.toFixed(0),
        target: 'reported',
        compared: share(r.statusPerSecond, memory.statusPerSecond),
        command,
      },
    ]),
    raw: { results },
  });
} finally {
  await load.stop();
  sandbox.close();
  await service.close();
  await postgres?.remove();
  rmSync(dir, { recursive: true, force: true });
}
