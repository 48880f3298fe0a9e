/**
 * The shop's server killed with SIGKILL at the worst moments of a payment, each reached exactly (the server waits
 * there, crash-proxy.mjs), then started again on its SQLite file as a supervisor restarts it: between the
 * service's create answer and the ledger write, between the ledger write of "paid" and the hook, inside the hook,
 * and inside a reconcile sweep. After each: one payment at the service however the shopper retries, "paid"
 * heard to its end exactly once (a hook cut off mid-call is called again: at least once, as guarantees.md says),
 * and the order refused a second payment.
 */
import { existsSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { eventually } from '../proxy/sandbox-harness.js';
import { useCompiledCli } from '../support/compiled-cli.js';
import { crashingShop, type CrashingShop } from './support/crashing-shop.js';

const build = useCompiledCli();
let shop: CrashingShop | undefined;
let files = 0;
afterEach(async () => {
  await shop?.close();
  shop = undefined;
});

/** A shop on a fresh SQLite file of its own: the file's path and the shop. */
async function shopOnSqlite(): Promise<{ path: string; shop: CrashingShop }> {
  const path = join(build.dir, `crash-${++files}.db`);
  shop = await crashingShop({ build: build.build, storeUrl: `sqlite:${path}` });
  return { path, shop };
}

/** The shopper's Pay pressed again while the answer is a retryable 5xx (the dead process's lease), at most 10 s. */
async function createUntilAnswered(shop: CrashingShop, orderId: string): Promise<{ status: number; body: any }> {
  const end = Date.now() + 10_000;
  for (;;) {
    const answer = await shop.post('/payments', { orderId, method: 'upi' });
    if (answer.status < 500 || Date.now() > end) return answer;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

const heard = (shop: CrashingShop, word: 'called' | 'done', id: string) =>
  shop.hookLines().filter((line) => line.startsWith(`${word} ${id} `) && line.endsWith(' paid')).length;

describe('the shop server killed with SIGKILL mid-payment, on SQLite', () => {
  it('makes no second payment when killed between the service creating it and the ledger recording it', async () => {
    const { shop } = await shopOnSqlite();
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

  it('announces "paid" once when killed after recording it and before calling the hook, from what the -wal file holds', async () => {
    const { path, shop } = await shopOnSqlite();
    const { reached } = await shop.startArmed('after-record');
    const { body } = await shop.post('/payments', { orderId: 'K-2', method: 'upi' });
    shop.sandbox.act(body.payment.id, 'pay');
    await reached;
    await shop.kill();
    // Killed without a checkpoint: the recorded state is in the write-ahead log only, and the hook was never called.
    expect(existsSync(`${path}-wal`) && statSync(`${path}-wal`).size > 0).toBe(true);
    expect(heard(shop, 'called', body.payment.id)).toBe(0);

    await shop.start();
    await eventually(() => heard(shop, 'done', body.payment.id) === 1, 10_000, '"paid" to be heard after the restart');
    await shop.sandbox.idle();
    await new Promise((resolve) => setTimeout(resolve, 2_000)); // sweeps and lapsed leases: nothing more is heard
    expect([heard(shop, 'called', body.payment.id), heard(shop, 'done', body.payment.id)]).toEqual([1, 1]);
    expect((await shop.post('/payments', { orderId: 'K-2', method: 'upi' })).status).toBe(409);
  }, 60_000);

  it('calls the hook again, and hears it to its end once, when killed while the hook ran', async () => {
    const { shop } = await shopOnSqlite();
    const { reached } = await shop.startArmed('in-hook');
    const { body } = await shop.post('/payments', { orderId: 'K-3', method: 'upi' });
    shop.sandbox.act(body.payment.id, 'pay');
    await reached;
    await shop.kill();
    expect([heard(shop, 'called', body.payment.id), heard(shop, 'done', body.payment.id)]).toEqual([1, 0]);

    await shop.start();
    await eventually(() => heard(shop, 'done', body.payment.id) === 1, 10_000, 'the cut-off "paid" to be heard again');
    await shop.sandbox.idle();
    await new Promise((resolve) => setTimeout(resolve, 2_000));
    expect([heard(shop, 'called', body.payment.id), heard(shop, 'done', body.payment.id)]).toEqual([2, 1]);
  }, 60_000);

  it('finds a payment paid while it was down, with no callback, when killed in the middle of a reconcile sweep', async () => {
    const { shop } = await shopOnSqlite();
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
    await new Promise((resolve) => setTimeout(resolve, 2_000));
    expect(heard(shop, 'called', body.payment.id)).toBe(1);
  }, 60_000);
});
