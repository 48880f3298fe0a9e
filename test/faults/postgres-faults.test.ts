/**
 * A real PostgreSQL taken away under the proxy and brought back, through the real sandbox over loopback: down at
 * start, gone in the middle of a create (after the service made the payment, before the proxy recorded it), gone
 * while the service delivers a callback, and read-only. Each time the browser (or the service) gets a clear
 * error answer and the log a line that names the cause, nothing is half-written, and the payment is picked up
 * again once the database is back: one payment per order at the service, each announced once. And a process
 * that dies right after it wrote a new state leaves that state queued for another process to announce.
 */
import postgres from 'postgres';
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createPostgresStore, type PostgresStore } from '../../src/postgres/index.js';
import type { ProxyLogger } from '../../src/proxy/logger.js';
import { usePostgresServer } from '../postgres/postgres-server-harness.js';
import { eventually, startLive, type Live } from '../proxy/sandbox-harness.js';

const server = usePostgresServer();
const cleanup: (() => Promise<unknown>)[] = [];
afterAll(async () => {
  for (const step of cleanup.reverse()) await step().catch(() => {});
});

/** The proxy on a fresh schema of the test database, its log lines kept. */
async function shop(
  options: { fetch?: typeof fetch; createsPerMinute?: number; callbackUrl?: string; lockTimeoutSeconds?: number } = {},
): Promise<{ live: Live; store: PostgresStore; log: string[]; schema: string }> {
  const schema = `faults_${Math.random().toString(36).slice(2)}`;
  const { lockTimeoutSeconds } = options;
  const store = createPostgresStore({
    url: server.url,
    schema,
    connectTimeoutSeconds: 2,
    ...(lockTimeoutSeconds ? { lockTimeoutSeconds } : {}),
  });
  const log: string[] = [];
  const keep =
    (level: string): ProxyLogger['info'] =>
    (message, fields) =>
      log.push(`${level}: ${message} ${JSON.stringify(fields ?? {})}`);
  const live = await startLive({
    store,
    logger: { info: keep('info'), warn: keep('warn'), error: keep('error') },
    reconcileEveryMs: 0,
    timeouts: { claimLeaseMs: 1_500 },
    ...(options.createsPerMinute ? { limits: { createsPerMinute: options.createsPerMinute } } : {}),
    ...(options.fetch ? { fetch: options.fetch } : {}),
    ...(options.callbackUrl ? { callbackUrl: options.callbackUrl } : {}),
  });
  cleanup.push(
    () => live.close(),
    () => store.close(),
  );
  return { live, store, log, schema };
}

/** A full disk is made as a small tmpfs, which only root (with the right to mount) can do; elsewhere that test is skipped. */
function canMountTmpfs(): boolean {
  if (process.getuid?.() !== 0) return false;
  const probe = mkdtempSync(join(tmpdir(), 'payin-mount-probe-'));
  try {
    const mounted = spawnSync('mount', ['-t', 'tmpfs', '-o', 'size=64k', 'tmpfs', probe]).status === 0;
    if (mounted) spawnSync('umount', [probe]);
    return mounted;
  } finally {
    rmSync(probe, { recursive: true, force: true });
  }
}

const paymentsOfOrder = (live: Live, orderId: string) => live.sandbox.payments().filter((p) => p.orderId === orderId);

describe('the PostgreSQL store when the database goes away', () => {
  it('answers 503 unavailable while the database is down at start, writes nothing, and serves once it is back', async () => {
    await server.stop();
    const { live, log } = await shop();
    const refused = await live.create('PG-DOWN-1');
    expect(refused.status).toBe(503);
    expect(refused.body.error.code).toBe('unavailable');
    expect(await live.proxy.checkStore()).toEqual({ ok: false, store: 'unreachable' });
    expect(log.join('\n')).toMatch(
      /PostgresStoreError: payin-checkout\/postgres: .* failed: PostgreSQL refused the connection: is it running/,
    );
    expect(paymentsOfOrder(live, 'PG-DOWN-1')).toEqual([]);

    await server.start();
    await eventually(async () => (await live.proxy.checkStore()).ok, 10_000, 'checkStore to see the database back');
    const created = await live.create('PG-DOWN-1');
    expect(created.status).toBe(201);
    expect(paymentsOfOrder(live, 'PG-DOWN-1')).toHaveLength(1);
  }, 30_000);

  it('loses nothing when it goes away in the middle of a create: the next create finds the payment the service made', async () => {
    let stopDuringCreate = true;
    const { live, log } = await shop({
      // The service's callback would adopt the payment by itself; the retry must find it without its help.
      callbackUrl: 'http://127.0.0.1:9/payin/callback',
      fetch: async (input, init) => {
        const answer = await fetch(input, init);
        if (stopDuringCreate && String(input).endsWith('/api/v2/payments')) {
          stopDuringCreate = false;
          await server.stop(); // the service has made the payment; the proxy has not recorded it yet
        }
        return answer;
      },
    });
    const failed = await live.create('PG-MID-1');
    expect(failed.status).toBe(503);
    expect(failed.body.error.code).toBe('unavailable');
    expect(log.join('\n')).toMatch(/the postgres store failed; answering 503 unavailable .*PostgresStoreError/);
    expect(paymentsOfOrder(live, 'PG-MID-1')).toHaveLength(1);

    await server.start();
    // The order's lease from the broken request lapses; the order, marked before the service was asked, is then
    // looked up at the service, not made again (201, as for a payment whose create answer was lost).
    const again = await live.create('PG-MID-1');
    expect(again.status).toBe(201);
    expect(again.body.payment.id).toBe(paymentsOfOrder(live, 'PG-MID-1')[0]!.id);
    expect(paymentsOfOrder(live, 'PG-MID-1')).toHaveLength(1);
  }, 30_000);

  it('answers the service 5xx while the database is gone, so that it calls back again, and announces once when it is back', async () => {
    const { live, log } = await shop();
    const created = await live.create('PG-CB-1');
    expect(created.status).toBe(201);
    const id = created.body.payment.id as string;
    await server.stop();
    live.sandbox.act(id, 'pay');
    await eventually(() => live.sandbox.payment(id)!.deliveries.some((d) => (d.httpStatus ?? 0) >= 500), 10_000, 'a callback refused');
    expect(log.join('\n')).toMatch(/PostgresStoreError/);
    expect(live.updates.filter((u) => u.payment.id === id && u.payment.outcome === 'paid')).toEqual([]);

    await server.start();
    await eventually(() => live.updates.some((u) => u.payment.id === id && u.payment.outcome === 'paid'), 15_000, 'paid to be announced');
    await live.sandbox.idle();
    expect(live.updates.filter((u) => u.payment.id === id && u.payment.outcome === 'paid')).toHaveLength(1);
  }, 40_000);

  it('answers a clear error while the database is read-only, writes nothing, and works again once it is not', async () => {
    const { live, log } = await shop();
    expect((await live.create('PG-RO-1')).status).toBe(201);
    const admin = postgres(server.url, { max: 1, onnotice: () => {} });
    cleanup.push(() => admin.end());
    await admin`SET default_transaction_read_only = off`; // this session keeps writing, to undo it
    await admin`ALTER SYSTEM SET default_transaction_read_only = on`;
    await admin`SELECT pg_reload_conf()`;
    try {
      // The reload reaches each database session a moment later: a create in that moment may take the order's lease
      // and create at the service before its next write is refused. A probe order waits for the refusal, so that
      // the order under test meets a database that is read-only from its first write.
      await eventually(async () => (await live.create('PG-RO-probe')).status === 503, 5_000, 'a write refused');
      expect((await live.create('PG-RO-2')).status).toBe(503);
      expect(log.join('\n')).toMatch(/the database is read-only .*point PAYIN_STORE_URL at the primary \(25006\)/);
      expect(paymentsOfOrder(live, 'PG-RO-2')).toEqual([]);
      // Health tells the truth: a database that answers reads but refuses every write cannot take a payment.
      expect(await live.proxy.checkStore()).toEqual({ ok: false, store: 'unreachable' });
      expect(log.join('\n')).toMatch(/error: the postgres store is unreachable.*the database is read-only/);
    } finally {
      await admin`ALTER SYSTEM RESET default_transaction_read_only`;
      await admin`SELECT pg_reload_conf()`;
    }
    await eventually(async () => (await live.create('PG-RO-2')).status === 201, 5_000, 'writes to work again');
    expect(paymentsOfOrder(live, 'PG-RO-2')).toHaveLength(1);
    await eventually(async () => (await live.proxy.checkStore()).ok, 5_000, 'checkStore to see writes work again');
  }, 30_000);

  it.skipIf(!canMountTmpfs())(
    'answers a clear error while the disk is full, makes no second payment, and works again once there is room',
    async () => {
      const { live, log, schema } = await shop({ createsPerMinute: 10_000 });
      expect((await live.create('PG-FULL-1')).status).toBe(201);
      // The store's tables on a 2 MiB disk of their own, filled up by another table.
      const disk = mkdtempSync(join(tmpdir(), 'payin-pg-full-'));
      execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=2m', 'tmpfs', disk]);
      cleanup.push(async () => {
        execFileSync('umount', ['-l', disk]);
        rmSync(disk, { recursive: true, force: true });
      });
      execFileSync('chown', ['postgres:postgres', disk]);
      const admin = postgres(server.url, { max: 1, onnotice: () => {} });
      cleanup.push(() => admin.end());
      const space = `full_${Math.random().toString(36).slice(2)}`;
      await admin.unsafe(`CREATE TABLESPACE ${space} LOCATION '${disk}'`);
      cleanup.push(() => admin.unsafe(`DROP TABLESPACE IF EXISTS ${space}`));
      for (const { name } of await admin<
        { name: string }[]
      >`SELECT table_name AS name FROM information_schema.tables WHERE table_schema = ${schema}`) {
        await admin.unsafe(`ALTER TABLE ${schema}.${name} SET TABLESPACE ${space}`);
      }
      await admin.unsafe(`CREATE TABLE ${schema}.filler (junk text) TABLESPACE ${space}`);
      let full = false;
      for (let i = 0; i < 200 && !full; i++) {
        try {
          await admin.unsafe(`INSERT INTO ${schema}.filler SELECT md5(g::text) || repeat('x', 2000) FROM generate_series(1, 200) g`);
        } catch (error) {
          full = (error as { code?: string }).code === '53100';
          if (!full) throw error;
        }
      }
      expect(full).toBe(true);

      // Rows still fit in pages that have room; the first write that needs a new page fails.
      let refusedOrder: string | undefined;
      for (let i = 2; i < 400 && !refusedOrder; i++) {
        const answer = await live.create(`PG-FULL-${i}`);
        if (answer.status === 503) refusedOrder = `PG-FULL-${i}`;
        else expect(answer.status).toBe(201);
      }
      expect(refusedOrder).toBeDefined();
      expect(log.join('\n')).toMatch(/the database's disk is full: free space or grow the volume \(53100\)/);
      // A payment the service made before the store refused its record is found again, never made twice.
      expect(paymentsOfOrder(live, refusedOrder!).length).toBeLessThanOrEqual(1);

      await admin.unsafe(`DROP TABLE ${schema}.filler`);
      await eventually(async () => [200, 201].includes((await live.create(refusedOrder!)).status), 5_000, 'writes to work again');
      expect(paymentsOfOrder(live, refusedOrder!)).toHaveLength(1);
    },
    60_000,
  );

  it('answers 503 within seconds while another session holds a lock on its table, names the lock, and works once it is let go', async () => {
    // 2 s rather than the default 5: the same refusal and the same words, naming the setting's seconds, sooner.
    const { live, log, schema } = await shop({ lockTimeoutSeconds: 2 });
    expect((await live.create('PG-LOCK-1')).status).toBe(201);
    // What VACUUM FULL, CLUSTER, an ALTER TABLE or a forgotten LOCK TABLE in an operator's session hold.
    const admin = postgres(server.url, { max: 1, onnotice: () => {} });
    cleanup.push(() => admin.end());
    let letGo!: () => void;
    const held = new Promise<void>((resolve) => {
      letGo = resolve;
    });
    let locked!: () => void;
    const lockTaken = new Promise<void>((resolve) => {
      locked = resolve;
    });
    const holding = admin.begin(async (tx) => {
      await tx.unsafe(`LOCK TABLE ${schema}.payments IN ACCESS EXCLUSIVE MODE`);
      locked();
      await held;
    });
    try {
      await lockTaken;
      const startedAt = Date.now();
      const answer = await Promise.race([live.create('PG-LOCK-2'), new Promise<undefined>((resolve) => setTimeout(resolve, 9_000))]);
      expect({ status: answer?.status, code: answer?.body.error?.code }).toEqual({ status: 503, code: 'unavailable' });
      expect(Date.now() - startedAt).toBeLessThan(8_000);
      expect(log.join('\n')).toMatch(/waited longer than 2 s for a lock another session holds.*\(55P03\)/);
    } finally {
      letGo();
      await holding;
    }
    expect((await live.create('PG-LOCK-2')).status).toBe(201);
  }, 30_000);

  it('announces a state whose process died right after it wrote it: the announcement was queued in the same write', async () => {
    const schema = `faults_${Math.random().toString(36).slice(2)}`;
    const shared = createPostgresStore({ url: server.url, schema });
    cleanup.push(() => shared.close());
    // Process A: once `dead`, every outbox step after the write fails, as if A was killed right after it.
    let dead = false;
    const dying = new Set(['enqueueAnnouncement', 'claimAnnouncement']);
    const storeOfA = new Proxy(shared, {
      get(target, name) {
        const value = Reflect.get(target, name) as unknown;
        if (typeof value !== 'function') return value;
        if (dying.has(String(name))) {
          return async (...args: unknown[]) => {
            if (dead) throw new Error('process A is gone');
            return (value as (...a: unknown[]) => unknown).apply(target, args);
          };
        }
        return (value as (...a: unknown[]) => unknown).bind(target);
      },
    });
    const a = await startLive({ store: storeOfA, reconcileEveryMs: 0 });
    cleanup.push(() => a.close());
    const created = await a.create('PG-DIE-1');
    expect(created.status).toBe(201);
    const id = created.body.payment.id as string;
    dead = true;
    a.sandbox.act(id, 'fail');
    await eventually(async () => (await shared.getPayment(id))?.view.state === 'failed', 10_000, 'A to record the failure');

    // Process B, on the same database, sweeps: it finds the announcement A queued with the state, and makes it.
    const b = await startLive({ store: createPostgresStore({ url: server.url, schema }), reconcileEveryMs: 0 });
    cleanup.push(() => b.close());
    await b.proxy.reconcile();
    expect(b.updates.filter((u) => u.payment.id === id).map((u) => u.payment.outcome)).toEqual(['failed']);
  }, 30_000);
});
