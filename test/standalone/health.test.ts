/**
 * The standalone server's health routes over real HTTP: `/healthz` is readiness (503 while the ledger's store
 * cannot be reached, so that a load balancer sends shoppers to another instance), `/livez` is the process alone
 * (an orchestrator must not restart an instance because the shared database is down). Stores that are down are
 * PostgreSQL and Redis pointed at a closed loopback port; a shopper's create there gets 503 `unavailable`.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { readStandaloneConfig, startStandalone, type StandaloneServer } from '../../src/standalone/index.js';
import { freePort } from '../support/free-port.js';
import { offlineStandaloneEnv } from '../support/standalone-env.js';
import { eventually } from '../proxy/sandbox-harness.js';

const dir = mkdtempSync(join(tmpdir(), 'payin-health-'));
const running: StandaloneServer[] = [];
afterAll(async () => {
  for (const server of running) await server.close();
  rmSync(dir, { recursive: true, force: true });
});

async function start(storeUrl: string): Promise<{ server: StandaloneServer; log: string[] }> {
  const log: string[] = [];
  const config = readStandaloneConfig(offlineStandaloneEnv(storeUrl));

  const server = await startStandalone(config, { log: (line) => log.push(line), reconcileEveryMs: 0 });
  running.push(server);
  return { server, log };
}

const get = async (url: string) => {
  const response = await fetch(url);
  return { status: response.status, body: (await response.json()) as unknown };
};

describe('the standalone server’s health routes', () => {
  it('answers /healthz 200 with the store ok, and /livez 200, while its SQLite file works', async () => {
    const { server } = await start(`sqlite:${join(dir, 'payin.db')}`);
    expect(await get(`${server.url}/healthz`)).toEqual({ status: 200, body: { ok: true, store: 'ok' } });
    expect(await get(`${server.url}/livez`)).toEqual({ status: 200, body: { ok: true } });
    expect(await (await fetch(`${server.url}/metrics`)).text()).toMatch(/^# TYPE payin_store_up gauge\npayin_store_up 1$/m);
  });

  it.each([
    ['PostgreSQL', (port: number) => `postgres://payin@127.0.0.1:${port}/payin`],
    ['Redis', (port: number) => `redis://127.0.0.1:${port}`],
  ])(
    'answers /healthz 503 while %s cannot be reached, /livez 200, and a create 503 unavailable',
    async (_name, url) => {
      const { server, log } = await start(url(await freePort())); // nobody listens there
      // Said at start, at the top, before anything asks /healthz: an operator reads the start-up lines first.
      const listening = log.findIndex((line) => line.startsWith('listening on'));
      expect(log.slice(0, listening).join('\n')).toMatch(/^error: the (postgres|redis) store is unreachable; health checks answer 503/m);
      expect(await get(`${server.url}/healthz`)).toEqual({ status: 503, body: { ok: false, store: 'unreachable' } });
      expect(await get(`${server.url}/livez`)).toEqual({ status: 200, body: { ok: true } });
      expect(log.join('\n')).toMatch(/error: the (postgres|redis) store is unreachable; health checks answer 503/);
      expect(await (await fetch(`${server.url}/metrics`)).text()).toMatch(/^payin_store_up 0$/m);

      const response = await fetch(`${server.url}/payin/payments`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ orderId: 'H-1', method: 'upi', orderToken: 'not-checked-before-the-store' }),
      });
      expect(response.status).toBe(503);
      expect(response.headers.get('retry-after')).toBe('5');
      expect(((await response.json()) as { error: { code: string } }).error.code).toBe('unavailable');
      expect(log.join('\n')).toMatch(/error: the (postgres|redis) store failed; answering 503 unavailable/);
    },
    30_000,
  );

  it('tells why Redis cannot be reached in its own log, once, and nothing on the console beside it', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    try {
      const { log } = await start(`redis://127.0.0.1:${await freePort()}`); // nobody listens there
      // ioredis reconnects in the background and reports each failed attempt; the server says the first, prefixed
      // as every other line it writes, so that an operator's log filter on `payin-proxy:` keeps it.
      const connection = (line: string) => line.startsWith('warning: the redis connection:');
      await eventually(() => log.some(connection), 5_000, 'the connection error in the log');
      expect(log.filter(connection)).toEqual([
        expect.stringMatching(/^warning: the redis connection: connect ECONNREFUSED 127\.0\.0\.1:\d+$/),
      ]);
      expect(warn.mock.calls).toEqual([]);
    } finally {
      warn.mockRestore();
    }
  }, 30_000);
});
