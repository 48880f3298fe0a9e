/**
 * A bounded soak: waves of payments through the real proxy (on the SQLite store) and the real sandbox over
 * loopback, each followed by an event stream until it is final, for SOAK_MS (60 s in `npm test`; longer with
 * `npm run soak`). Once payments are final nothing may pile up: the heap after a full GC, the process's open file
 * descriptors and the open event-stream subscriptions end where they were after the warm-up, within a margin a
 * busy machine cannot break.
 */
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import v8 from 'node:v8';
import vm from 'node:vm';
import { afterAll, describe, expect, it } from 'vitest';
import { createSqliteStore } from '../../src/sqlite/index.js';
import { startLive, type Live } from '../proxy/sandbox-harness.js';

const SOAK_MS = Number(process.env.SOAK_MS ?? 60_000);
const WARM_UP_MS = Math.min(10_000, SOAK_MS / 4);
const WAVE = 20;

v8.setFlagsFromString('--expose-gc');
const gc = vm.runInNewContext('gc') as () => void;

/** The heap after full collections, with turns of the event loop between them so that finalizers run too. */
async function heapAfterGc(): Promise<number> {
  for (let i = 0; i < 4; i++) {
    gc();
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return process.memoryUsage().heapUsed;
}
const openFds = () => readdirSync('/proc/self/fd').length;

/** Reads an event stream until the server closes it (the payment is final) or `ms` passes. */
async function followUntilFinal(url: string, ms: number): Promise<string> {
  const response = await fetch(url, { signal: AbortSignal.timeout(ms) });
  return response.text();
}

describe('a soak', () => {
  const dir = mkdtempSync(join(tmpdir(), 'payin-soak-'));
  let live: Live | undefined;
  afterAll(async () => {
    await live?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it(
    `keeps memory, file descriptors and open streams flat over ${SOAK_MS / 1000} s of payments`,
    async () => {
      const store = createSqliteStore({ path: join(dir, 'soak.db') });
      // The sandbox lives in this process too: it keeps only its newest payments, so that its own memory is bounded.
      // The hook only counts: a test that kept every announcement would be the leak.
      let finals = 0;
      live = await startLive(
        {
          store,
          reconcileEveryMs: 0,
          limits: { createsPerMinute: 1_000_000, statusPerMinute: 1_000_000, streamsPerClient: 1_000 },
          onPaymentUpdate: (payment) => {
            if (payment.final) finals++;
          },
        },
        { maxPayments: 200 },
      );
      const started = Date.now();
      let baseline: { heap: number; fds: number } | undefined;
      let waves = 0;
      let order = 0;
      while (Date.now() - started < SOAK_MS) {
        const created = await Promise.all(Array.from({ length: WAVE }, () => live!.create(`K-${order++}`)));
        const streams = created.map(({ body }) =>
          followUntilFinal(`${live!.proxyUrl}/payin/events?paymentId=${body.payment.id}&token=${body.token}`, 20_000),
        );
        for (const { body } of created) live.sandbox.act(body.payment.id, order % 3 ? 'pay' : 'expire');
        const texts = await Promise.all(streams);
        expect(texts.every((t) => /"final":true/.test(t))).toBe(true);
        waves++;
        // The harness records every request that reaches the sandbox; the soak reads none, and keeping them all
        // would be the test's own leak (about half a kilobyte a payment), not the proxy's.
        live.apiCalls.length = 0;
        if (!baseline && Date.now() - started >= WARM_UP_MS) baseline = { heap: await heapAfterGc(), fds: openFds() };
      }
      await live.sandbox.idle();
      expect(finals).toBe(order);
      const end = { heap: await heapAfterGc(), fds: openFds() };
      expect(baseline).toBeDefined();
      expect(waves).toBeGreaterThan(2);
      expect(store.subscriptionCount).toBe(0);
      // Idle keep-alive sockets of the last wave (a stream and a create each side) come and go with timing; a
      // leak of one descriptor per payment would pass this bound within seconds.
      expect(end.fds - baseline!.fds).toBeLessThan(4 * WAVE);
      expect(end.heap - baseline!.heap).toBeLessThan(8 * 1024 * 1024);
      console.log(
        `soak: ${waves * WAVE} payments in ${waves} waves; heap ${((end.heap - baseline!.heap) / 1e6).toFixed(1)} MB and ${end.fds - baseline!.fds} fds from the baseline`,
      );
      await store.close();
    },
    SOAK_MS + 60_000,
  );
});
