/**
 * The re-checks after a "paid" callback the status answer does not confirm yet keep a set of the payments being
 * re-checked: it must stay bounded whatever is posted, and a payment must leave it when its series is over.
 */
import { describe, expect, it } from 'vitest';
import { createContext } from '../../../src/proxy/context.js';
import { resolveOptions } from '../../../src/proxy/resolved-options.js';
import { silentLogger } from '../../../src/proxy/logger.js';
import { PaidRechecks } from '../../../src/proxy/use-cases/paid-rechecks.js';
import { BASE_URL, MERCHANT, SECRET, TOKEN } from '../fake-service.js';
import { CALLBACK_URL, passTime, setup } from '../harness.js';

/** Three open payments, and re-checks over the same store and service that let at most two series run at once. */
async function threeOpenPayments() {
  const t = setup({ reconcileEveryMs: 0 });
  const ids: string[] = [];
  for (const orderId of ['A-1', 'A-2', 'A-3']) ids.push((await t.create(orderId)).body.payment.id);
  const options = resolveOptions({
    provider: { baseUrl: BASE_URL, merchantId: MERCHANT, token: TOKEN, secret: SECRET },
    callbackUrl: CALLBACK_URL,
    resolveOrder: () => ({ amount: '250.00', currency: 'INR' }),
    fetch: t.service.fetch,
    clock: t.clock,
    store: t.store,
    logger: silentLogger,
    env: {},
    reconcileEveryMs: 0,
  });
  const rechecks = new PaidRechecks(options, createContext(options).ledger, 2);
  const asked = () => t.service.paymentStatuses.slice(3).map((call) => call.body.paymentId);
  return { ...t, ids, rechecks, asked };
}

describe('re-checks of payments a callback said were paid', () => {
  it('run for at most maxPayments payments at once, and take a payment again once its series is over', async () => {
    const t = await threeOpenPayments();
    for (const id of t.ids) t.rechecks.soon(id);
    await passTime(t.clock, 45_000);
    expect(t.asked()).toHaveLength(8); // four each for the first two; the third is left to the sweep
    expect(t.asked()).not.toContain(t.ids[2]);
    t.rechecks.soon(t.ids[2]!);
    await passTime(t.clock, 2_000);
    expect(t.asked().at(-1)).toBe(t.ids[2]);
  });

  it('stop as soon as the payment is final', async () => {
    const t = await threeOpenPayments();
    t.rechecks.soon(t.ids[0]!);
    t.service.set(t.ids[0]!, { state: 'finished', status: true });
    await passTime(t.clock, 45_000);
    expect(t.asked()).toEqual([t.ids[0]]);
    expect((await t.store.getPayment(t.ids[0]!))!.view.state).toBe('finished');
  });
});

describe('closing the proxy', () => {
  it('ends the re-checks under way: the service is not asked again after close()', async () => {
    const t = setup({ reconcileEveryMs: 0 });
    const id = (await t.create('A-1')).body.payment.id;
    // The service's "finished" callback, while its status answer still says pending: a series of re-checks starts.
    expect((await t.callback({ ...t.service.payments.get(id)!, state: 'finished', status: true })).status).toBe(200);
    const asked = t.service.paymentStatuses.length;
    await t.proxy.close();
    await passTime(t.clock, 45_000);
    expect(t.service.paymentStatuses.length - asked).toBe(0);
  });
});
