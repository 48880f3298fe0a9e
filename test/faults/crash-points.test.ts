/**
 * The shop's server killed with SIGKILL at the worst moments of a payment, each reached exactly (the server waits
 * there, crash-proxy.mjs), then started again on its store (SQLite, PostgreSQL, Redis) as a supervisor restarts
 * it: between the
 * service's create answer and the ledger write, between the ledger write of "paid" and the hook, inside the hook,
 * and inside a reconcile sweep. After each: one payment at the service however the shopper retries, "paid"
 * heard to its end exactly once (a hook cut off mid-call is called again: at least once, as guarantees.md says),
 * and the order refused a second payment. And an operator's redelivery cut off in the hook: the restart sends
 * nothing by itself, and the operator's next press is sent once the killed one's lease has lapsed.
 */
import { existsSync, statSync } from 'node:fs';
import { join } from 'node:path';
import postgres from 'postgres';
import { afterEach, describe, expect, it } from 'vitest';
import { operatorOverHttp } from '../console-api/console-harness.js';
import { usePostgresServer } from '../postgres/postgres-server-harness.js';
import { eventually } from '../proxy/sandbox-harness.js';
import { useRedisServer } from '../redis/redis-server-harness.js';
import { useCompiledCli } from '../support/compiled-cli.js';
import { type CrashingShop, crashingShop, createUntilAnswered, heardPaid, LEASE_MS, QUIET_MS } from './support/crashing-shop.js';

const build = useCompiledCli();
const pg = usePostgresServer();
const redis = useRedisServer();
let shop: CrashingShop | undefined;
afterEach(async () => {
  await shop?.close();
  shop = undefined;
});

/** A fresh, empty store of each kind, one per test: its URL, and for SQLite its write-ahead log's path. */
let fresh = 0;
const STORES: { name: string; storeUrl(): Promise<{ url: string; wal?: string }> }[] = [
  {
    name: 'SQLite',
    storeUrl: async () => {
      const path = join(build.dir, `crash-${++fresh}.db`);
      return { url: `sqlite:${path}`, wal: `${path}-wal` };
    },
  },
  {
    name: 'PostgreSQL',
    storeUrl: async () => {
      const database = `crash_${++fresh}`;
      const admin = postgres(pg.url, { max: 1, onnotice: () => {} });
      await admin.unsafe(`CREATE DATABASE ${database}`);
      await admin.end();
      return { url: pg.url.replace(/\/postgres$/, `/${database}`) };
    },
  },
  // A database number of its own per test (Redis has 16).
  { name: 'Redis', storeUrl: async () => ({ url: `${redis.url}/${++fresh % 16}` }) },
];

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
const heard = (shop: CrashingShop, word: 'called' | 'done', id: string) => heardPaid(shop.hookLines(), word, id);

describe.each(STORES)('the shop server killed with SIGKILL mid-payment, on $name', (store) => {
  /** A shop on a fresh store of its own: the shop, and for SQLite the write-ahead log's path. */
  const shopOnStore = async (): Promise<{ wal?: string; shop: CrashingShop }> => {
    const { url, wal } = await store.storeUrl();
    shop = await crashingShop({ build: build.build, storeUrl: url });
    return { wal, shop };
  };

  it('makes no second payment when killed between the service creating it and the ledger recording it', async () => {
    const { shop } = await shopOnStore();
    const { reached } = await shop.startArmed('after-create');
    const cut = shop.post('/payments', { orderId: 'K-1', method: 'upi' }).catch((error: Error) => error);
    await reached;
    await shop.kill();
    expect(await cut).toBeInstanceOf(Error);
    const [made] = shop.sandbox.payments();
    expect(shop.sandbox.payments()).toHaveLength(1);

    await shop.start();
    const retry = await createUntilAnswered(shop, 'K-1');
    expect([retry.status, retry.body.payment?.id]).toEqual([201, made!.id]);
    expect(shop.sandbox.payments()).toHaveLength(1);
    shop.sandbox.act(made!.id, 'pay');
    await eventually(() => heard(shop, 'done', made!.id) === 1, 10_000, '"paid" to be heard');
    expect((await shop.post('/payments', { orderId: 'K-1', method: 'upi' })).status).toBe(409);
    expect(shop.sandbox.payments()).toHaveLength(1);
  }, 60_000);

  it('announces "paid" once when killed after recording it and before calling the hook (on SQLite, from the -wal file)', async () => {
    const { wal, shop } = await shopOnStore();
    const { reached } = await shop.startArmed('after-record');
    const { body } = await shop.post('/payments', { orderId: 'K-2', method: 'upi' });
    shop.sandbox.act(body.payment.id, 'pay');
    await reached;
    await shop.kill();
    // On SQLite, killed without a checkpoint: the recorded state is in the write-ahead log. The hook was never called.
    if (wal) expect(existsSync(wal) && statSync(wal).size > 0).toBe(true);
    expect(heard(shop, 'called', body.payment.id)).toBe(0);

    await shop.start();
    await eventually(() => heard(shop, 'done', body.payment.id) === 1, 10_000, '"paid" to be heard after the restart');
    await shop.sandbox.idle();
    await sleep(QUIET_MS); // sweeps and lapsed leases: nothing more is heard
    expect([heard(shop, 'called', body.payment.id), heard(shop, 'done', body.payment.id)]).toEqual([1, 1]);
    expect((await shop.post('/payments', { orderId: 'K-2', method: 'upi' })).status).toBe(409);
  }, 60_000);

  it('calls the hook again, and hears it to its end once, when killed while the hook ran', async () => {
    const { shop } = await shopOnStore();
    const { reached } = await shop.startArmed('in-hook');
    const { body } = await shop.post('/payments', { orderId: 'K-3', method: 'upi' });
    shop.sandbox.act(body.payment.id, 'pay');
    await reached;
    await shop.kill();
    expect([heard(shop, 'called', body.payment.id), heard(shop, 'done', body.payment.id)]).toEqual([1, 0]);

    await shop.start();
    await eventually(() => heard(shop, 'done', body.payment.id) === 1, 10_000, 'the cut-off "paid" to be heard again');
    await shop.sandbox.idle();
    await sleep(QUIET_MS);
    expect([heard(shop, 'called', body.payment.id), heard(shop, 'done', body.payment.id)]).toEqual([2, 1]);
  }, 60_000);

  it('finds a payment paid while it was down, with no callback, when killed in the middle of a reconcile sweep', async () => {
    const { shop } = await shopOnStore();
    // The service's callbacks reach nobody: only the sweep can learn of "paid".
    const nowhere = { callbackUrl: 'http://127.0.0.1:9/payin/callback' };
    const { reached } = await shop.startArmed('in-sweep', nowhere);
    const { status, body } = await shop.post('/payments', { orderId: 'K-4', method: 'upi' });
    expect(status).toBe(201);
    await reached;
    await shop.kill();
    shop.sandbox.act(body.payment.id, 'pay');

    await shop.start(nowhere);
    await eventually(() => heard(shop, 'done', body.payment.id) === 1, 10_000, 'the sweep after the restart to hear "paid"');
    await sleep(QUIET_MS);
    expect(heard(shop, 'called', body.payment.id)).toBe(1);
  }, 60_000);

  it("sends the operator's redelivery again after a kill cut it off in the hook, and nothing of its own", async () => {
    const { shop } = await shopOnStore();
    const { reached } = await shop.startArmed('in-redelivery');
    const { body } = await shop.post('/payments', { orderId: 'K-5', method: 'upi' });
    const id: string = body.payment.id;
    shop.sandbox.act(id, 'pay');
    await eventually(() => heard(shop, 'done', id) === 1, 10_000, '"paid" to be heard');
    const operator = operatorOverHttp(shop.url, 'ana');
    await operator.signIn();
    const cut = operator.post(`/api/payments/${id}/redeliver`).catch((error: Error) => error);
    await reached;
    await shop.kill();
    expect(await cut).toBeInstanceOf(Error);
    expect([heard(shop, 'called', id), heard(shop, 'done', id)]).toEqual([2, 1]);

    await shop.start();
    await sleep(QUIET_MS); // sweeps and lapsed leases: the restart sends nothing
    expect([heard(shop, 'called', id), heard(shop, 'done', id)]).toEqual([2, 1]);
    const again = operatorOverHttp(shop.url, 'ana');
    await again.signIn();
    // A press within the killed redelivery's lease (hookLeaseMs, LEASE_MS here: lapsed by now) is answered 409 busy.
    let pressed = await again.post<{ outcome?: string }>(`/api/payments/${id}/redeliver`);
    for (let i = 0; i < 50 && pressed.answer.status === 409; i++) {
      await sleep(LEASE_MS / 3);
      pressed = await again.post<{ outcome?: string }>(`/api/payments/${id}/redeliver`);
    }
    expect([pressed.answer.status, pressed.body.outcome]).toEqual([200, 'sent']);
    expect([heard(shop, 'called', id), heard(shop, 'done', id)]).toEqual([3, 2]);
  }, 60_000);

  it('delivers a "paid" its hook failed before a kill mid-sweep right after the restart, while the dead sweep holds its lease', async () => {
    const { shop } = await shopOnStore();
    // The killed sweep's lease outlasts the test, as the default 5 minutes would.
    const longSweepLease = { SWEEP_LEASE_MS: '60000' };
    const { reached } = await shop.startArmed('in-sweep-after-paid', { env: { ...longSweepLease, HOOK_FAILS: '1' } });
    await shop.post('/payments', { orderId: 'K-6', method: 'upi' }); // left open: every sweep asks about it
    const { body } = await shop.post('/payments', { orderId: 'K-7', method: 'upi' });
    const id: string = body.payment.id;
    shop.sandbox.act(id, 'pay');
    await reached;
    await shop.kill();
    expect(heard(shop, 'called', id)).toBeGreaterThan(0);
    expect(heard(shop, 'done', id)).toBe(0);

    await shop.start({ env: longSweepLease });
    await eventually(() => heard(shop, 'done', id) === 1, 5_000, '"paid" to be heard after the restart');
  }, 60_000);

  it('marks a second paid payment, and tells the hook so once, when killed before the mark was written', async () => {
    const { shop } = await shopOnStore();
    const { reached } = await shop.startArmed('in-second-mark');
    const first: string = (await shop.post('/payments', { orderId: 'K-8', method: 'upi' })).body.payment.id;
    const second: string = (await shop.post('/payments', { orderId: 'K-8', method: 'sbp' })).body.payment.id;
    shop.sandbox.act(first, 'pay');
    await eventually(() => heard(shop, 'done', first) === 1, 10_000, 'the first "paid" to be heard');
    shop.sandbox.act(second, 'pay'); // the shopper switched methods and paid both
    await reached;
    await shop.kill();
    expect(heard(shop, 'called', second)).toBe(0);

    await shop.start();
    await eventually(() => heard(shop, 'done', second) === 1, 10_000, 'the second "paid" to be heard after the restart');
    await sleep(QUIET_MS);
    const lines = shop.hookLines();
    expect([heard(shop, 'called', second), lines.filter((line) => line.startsWith('second ')).length]).toEqual([1, 1]);
    expect(lines).toContain(`second ${second} of ${first}`);
    const operator = operatorOverHttp(shop.url, 'ana');
    await operator.signIn();
    const listed = await operator.get<{ payments: { id: string }[] }>('/api/payments?filter=second');
    expect(listed.body.payments.map((p) => p.id)).toEqual([second]);
  }, 60_000);
});
