/**
 * Closing the proxy while its own reconcile sweep is under way (a SIGTERM of the standalone server lands in one
 * now and then): close() ends only once the sweep has stopped and let go of the sweep lease, so that a server
 * closing its store next does not pull it from under the sweep, which would leave the lease held in a shared store
 * and the next process unable to sweep until it lapsed (sweepLeaseMs, 5 minutes).
 */
import { describe, expect, it } from 'vitest';
import { setup, until } from '../harness.js';

/**
 * Starts the proxy's next reconcile sweep with the service holding its batch call until `answer()`; resolves once
 * the sweep has asked. `asked()` counts the batch calls.
 */
async function sweepHeldByTheService(t: ReturnType<typeof setup>) {
  let answer = () => {};
  const held = new Promise<void>((resolve) => (answer = resolve));
  let asked = 0;
  t.service.onStatus = async (body) => {
    if (!Array.isArray(body.paymentIds)) return undefined;
    asked++;
    await held;
    return undefined;
  };
  await t.clock.advance(30_000);
  await until(() => asked === 1, 'the sweep to ask the service');
  return { answer: () => answer(), asked: () => asked };
}

describe('close() during a reconcile sweep', () => {
  it('waits for the sweep to stop, after the batch it is asking about, and leaves the sweep lease free', async () => {
    const t = setup({ reconcileEveryMs: 30_000 });
    const ids = (await Promise.all(['A-1', 'A-2'].map((order) => t.create(order)))).map((c) => c.body.payment.id);
    const sweep = await sweepHeldByTheService(t);

    let closed = false;
    const closing = t.proxy.close().then(() => (closed = true));
    for (let i = 0; i < 20; i++) await new Promise((resolve) => setTimeout(resolve, 0));
    expect(closed).toBe(false);

    for (const id of ids) t.service.set(id, { state: 'finished', status: true });
    sweep.answer();
    await closing;
    // What the service answered was recorded before the store could be closed (its announcements queued for the
    // next process), and nothing more was asked.
    for (const id of ids) expect((await t.store.getPayment(id))?.view.outcome).toBe('paid');
    expect(sweep.asked()).toBe(1);
    expect(await t.store.claim('sweep', 'the next process', 60_000)).toBe(true);
  });

  it('keeps the sweep lease while a sweep outlasts it, so that no other instance sweeps beside it', async () => {
    const t = setup({ reconcileEveryMs: 30_000 });
    await t.create('A-1');
    const sweep = await sweepHeldByTheService(t);
    // Ten minutes of a slow service, twice the lease (sweepLeaseMs, 5 minutes), a minute at a time.
    for (let minute = 0; minute < 10; minute++) {
      await t.clock.advance(60_000);
      for (let i = 0; i < 5; i++) await new Promise((resolve) => setTimeout(resolve, 0));
    }
    expect(await t.store.claim('sweep', 'another instance', 60_000)).toBe(false);
    sweep.answer();
    await t.proxy.close();
    expect(await t.store.claim('sweep', 'the next process', 60_000)).toBe(true);
  });
});
