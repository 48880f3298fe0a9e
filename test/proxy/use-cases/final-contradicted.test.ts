/**
 * A final state never changes, but the service may say something else about a final payment: finished after it
 * expired (the money came late, or a dispute reopened it), or canceled, failed or disputed after it finished (a
 * reversal). Nothing is recorded or announced for it, so the operator must hear of it from the log, or money sits
 * at the service that nobody knows of. A callback arriving late and out of order is no such news: it is checked
 * with a status call first, and only what the service confirms is logged.
 */
import { describe, expect, it } from 'vitest';
import { markResolved } from '../../../src/proxy/ledger/contradiction-marks.js';
import { capturingLogger, setup } from '../harness.js';

const contradiction = (lines: string[]) => lines.filter((line) => line.includes('contradicts the final state'));

async function finalSetup(finalState: string) {
  const log = capturingLogger();
  const t = setup({ logger: log.logger });
  const { body } = await t.create('A-1');
  const id = body.payment.id;
  t.service.set(id, { state: finalState, status: finalState === 'finished' });
  await t.callback(t.service.payments.get(id));
  expect((await t.store.getPayment(id))!.view.state).toBe(finalState);
  return { ...t, id, token: body.token, lines: log.lines, heard: () => t.updates.map((u) => u.payment.state) };
}

describe('a final payment the service contradicts', () => {
  it('warns when a payment recorded expired is finished at the service, and changes nothing', async () => {
    const t = await finalSetup('expired');
    t.service.set(t.id, { state: 'finished', status: true });
    expect((await t.callback(t.service.payments.get(t.id))).status).toBe(200);
    const [line] = contradiction(t.lines);
    expect(line).toContain(t.id);
    expect(line).toContain('"recorded":"expired"');
    expect(line).toContain('"now":"finished"');
    expect(t.heard()).toEqual(['pending', 'expired']);
    expect((await t.status(t.id, t.token)).body.payment.outcome).toBe('expired');
    expect((await t.store.getOrder('A-1'))?.paidBy).toBeUndefined();
  });

  for (const reversal of ['canceled', 'failed', 'dispute']) {
    it(`warns when a paid payment is ${reversal} at the service, and it stays paid`, async () => {
      const t = await finalSetup('finished');
      t.service.set(t.id, { state: reversal, status: false });
      expect((await t.callback(t.service.payments.get(t.id))).status).toBe(200);
      expect(contradiction(t.lines)).toHaveLength(1);
      expect(contradiction(t.lines)[0]).toContain(`"now":"${reversal}"`);
      expect(t.heard()).toEqual(['pending', 'finished']);
      expect((await t.store.getPayment(t.id))!.view.outcome).toBe('paid');
    });
  }

  it('says nothing of a dispute callback that arrives after the finish that ended the dispute', async () => {
    const t = await finalSetup('finished');
    const before = t.service.paymentStatuses.length;
    expect((await t.callback({ ...t.service.payments.get(t.id)!, state: 'dispute', status: false })).status).toBe(200);
    expect(t.service.paymentStatuses.length).toBe(before + 1);
    expect(contradiction(t.lines)).toEqual([]);
  });

  it('asks nothing about a late pending or in_check, nor a repeated final state', async () => {
    const t = await finalSetup('expired');
    const before = t.service.paymentStatuses.length;
    for (const state of ['pending', 'in_check', 'expired', 'canceled']) await t.callback({ ...t.service.payments.get(t.id)!, state });
    expect(t.service.paymentStatuses.length).toBe(before);
    expect(contradiction(t.lines)).toEqual([]);
  });

  it('warns of nothing for a finish the service has not confirmed (status false)', async () => {
    const t = await finalSetup('expired');
    t.service.set(t.id, { state: 'finished', status: false });
    await t.callback(t.service.payments.get(t.id));
    expect(contradiction(t.lines)).toEqual([]);
  });
});

describe('a contradiction on the payment timeline', () => {
  const contradictions = async (t: Awaited<ReturnType<typeof finalSetup>>) =>
    (await t.store.paymentHistory(t.id)).filter((h) => h.kind === 'contradiction');

  it('holds one line after two identical contradicting callbacks: what the service says against what the shop was told', async () => {
    const t = await finalSetup('expired');
    t.service.set(t.id, { state: 'finished', status: true });
    const late = t.service.payments.get(t.id)!;
    for (let i = 0; i < 2; i++) expect((await t.callback(late)).status).toBe(200);
    // The log's word-for-word repeat is folded into a count a minute later (folded-repeats.ts).
    expect(contradiction(t.lines)).toHaveLength(1);
    const lines = await contradictions(t);
    expect(lines).toEqual([
      expect.objectContaining({
        kind: 'contradiction',
        state: 'finished',
        amount: late.amount,
        currency: late.currency,
        recorded: 'expired',
        outcome: 'expired',
      }),
    ]);
    expect(t.heard()).toEqual(['pending', 'expired']);
  });

  it('adds a line for a different contradiction of the same payment', async () => {
    const t = await finalSetup('finished');
    t.service.set(t.id, { state: 'dispute', status: false });
    await t.callback(t.service.payments.get(t.id));
    t.service.set(t.id, { state: 'canceled', status: false });
    await t.callback(t.service.payments.get(t.id));
    await t.callback(t.service.payments.get(t.id));
    expect((await contradictions(t)).map((h) => h.kind === 'contradiction' && [h.recorded, h.state])).toEqual([
      ['finished', 'dispute'],
      ['finished', 'canceled'],
    ]);
    expect((await t.store.getPayment(t.id))!.view.outcome).toBe('paid');
  });
});

describe("a contradiction in the console's lists", () => {
  const listed = async (t: Awaited<ReturnType<typeof finalSetup>>, filter: 'contradicted' | 'expired' | 'paid') =>
    (await t.store.listPayments({ filter, limit: 10, now: t.clock.now() })).payments.map((p) => p.view.id);

  it('lists a payment whose money came after it expired under contradicted, once however often the service says so', async () => {
    const t = await finalSetup('expired');
    expect(await listed(t, 'contradicted')).toEqual([]);
    t.service.set(t.id, { state: 'finished', status: true });
    await t.callback(t.service.payments.get(t.id));
    const marked = (await t.store.getPayment(t.id))!;
    expect(marked.contradicted).toEqual({ at: t.clock.now(), state: 'finished' });
    expect(await listed(t, 'contradicted')).toEqual([t.id]);
    expect(await listed(t, 'expired')).toEqual([t.id]);
    expect((await t.store.countPayments(t.clock.now())).contradicted).toBe(1);
    await t.callback(t.service.payments.get(t.id));
    expect((await t.store.getPayment(t.id))!.version).toBe(marked.version);
    expect(t.heard()).toEqual(['pending', 'expired']);
  });

  /** A paid payment the service disputed, which an operator then marked resolved. */
  async function resolvedDispute() {
    const t = await finalSetup('finished');
    t.service.set(t.id, { state: 'dispute', status: false });
    await t.callback(t.service.payments.get(t.id));
    await t.clock.advance(60_000);
    expect(await markResolved(t, t.id, { operator: 'ana', note: 'answered the dispute' })).toHaveProperty('marked');
    expect(await listed(t, 'contradicted')).toEqual([]);
    return t;
  }

  it('lists a dispute the service opens again after it closed the one an operator marked resolved', async () => {
    const t = await resolvedDispute();
    await t.clock.advance(3_600_000);
    t.service.set(t.id, { state: 'finished', status: true });
    expect((await t.callback(t.service.payments.get(t.id))).status).toBe(200);
    await t.clock.advance(3_600_000);
    t.service.set(t.id, { state: 'dispute', status: false });
    expect((await t.callback(t.service.payments.get(t.id))).status).toBe(200);
    expect(await listed(t, 'contradicted')).toEqual([t.id]);
    expect((await t.store.countPayments(t.clock.now())).contradicted).toBe(1);
    const lines = (await t.store.paymentHistory(t.id)).filter((h) => h.kind === 'contradiction');
    expect(lines.map((h) => h.kind === 'contradiction' && h.state)).toEqual(['dispute', 'dispute']);
    // Delivered again, the second dispute is the same one: listed once, one line.
    const version = (await t.store.getPayment(t.id))!.version;
    await t.callback(t.service.payments.get(t.id));
    expect((await t.store.getPayment(t.id))!.version).toBe(version);
    expect((await t.store.paymentHistory(t.id)).filter((h) => h.kind === 'contradiction')).toHaveLength(2);
    expect(t.heard()).toEqual(['pending', 'finished']);
  });

  it('keeps a dispute resolved when a late copy of the finish arrives while the service still has it disputed', async () => {
    const t = await resolvedDispute();
    await t.callback({ ...t.service.payments.get(t.id)!, state: 'finished', status: true });
    await t.callback(t.service.payments.get(t.id));
    expect(await listed(t, 'contradicted')).toEqual([]);
    expect((await t.store.countPayments(t.clock.now())).resolved).toBe(1);
  });

  it('marks nothing for a callback the service does not confirm', async () => {
    const t = await finalSetup('finished');
    await t.callback({ ...t.service.payments.get(t.id)!, state: 'dispute', status: false });
    expect((await t.store.getPayment(t.id))!.contradicted).toBeUndefined();
    expect(await listed(t, 'contradicted')).toEqual([]);
  });
});

describe('a captured callback replayed while a contradiction is ongoing', () => {
  /** A paid payment the service has disputed since: the dispute is marked, and the service still says it. */
  async function ongoingDispute() {
    const t = await finalSetup('finished');
    t.service.set(t.id, { state: 'dispute', status: false });
    await t.callback(t.service.payments.get(t.id));
    expect((await t.store.getPayment(t.id))!.contradicted?.state).toBe('dispute');
    await t.clock.advance(60_000);
    return t;
  }

  it('costs one status call per coalescing window however often the final state is replayed', async () => {
    const t = await ongoingDispute();
    const finish = { ...t.service.payments.get(t.id)!, state: 'finished', status: true };
    const before = t.service.paymentStatuses.length;
    for (let i = 0; i < 20; i++) expect((await t.callback(finish)).status).toBe(200);
    await Promise.all(Array.from({ length: 20 }, () => t.callback(finish)));
    expect(t.service.paymentStatuses.length - before).toBe(1);
    await t.clock.advance(3_000); // coalesceMs
    for (let i = 0; i < 20; i++) await t.callback(finish);
    expect(t.service.paymentStatuses.length - before).toBe(2);
    expect((await t.store.getPayment(t.id))!.contradicted?.endedAt).toBeUndefined();
  });

  it('costs one status call per coalescing window however often the contradicting state is replayed', async () => {
    const t = await ongoingDispute();
    const before = t.service.paymentStatuses.length;
    for (let i = 0; i < 20; i++) expect((await t.callback(t.service.payments.get(t.id))).status).toBe(200);
    expect(t.service.paymentStatuses.length - before).toBe(1);
  });

  it('still hears the end of the dispute from a callback after the window of a replay', async () => {
    const t = await ongoingDispute();
    const finish = { ...t.service.payments.get(t.id)!, state: 'finished', status: true };
    await t.callback(finish);
    t.service.set(t.id, { state: 'finished', status: true });
    await t.clock.advance(3_000);
    await t.callback(t.service.payments.get(t.id));
    expect((await t.store.getPayment(t.id))!.contradicted?.endedAt).toBe(t.clock.now());
  });
});
