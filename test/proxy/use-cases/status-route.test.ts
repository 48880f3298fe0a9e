import { describe, expect, it } from 'vitest';
import { signBody } from '../../../src/shared/hmac.js';
import { capturingLogger, drive, setup } from '../harness.js';

describe('POST /payin/status', () => {
  it('reads nothing with a paymentId but a wrong, empty or missing token: 404 like an unknown payment', async () => {
    const t = setup();
    const { body } = await t.create();
    const before = t.service.sent.length;
    for (const token of ['wrong', body.token.slice(0, -1), `${body.token}x`]) {
      const answer = await t.status(body.payment.id, token);
      expect(answer.response.status).toBe(404);
      expect(answer.body.error?.code).toBe('not_found');
      expect(JSON.stringify(answer.body)).not.toContain('250.00');
    }
    expect((await t.status('no-such-payment', body.token)).response.status).toBe(404);
    expect((await t.post('/status', { paymentId: body.payment.id })).status).toBe(400);
    expect(t.service.sent.length).toBe(before);
  });

  it('makes one upstream call for 100 concurrent status requests for one payment', async () => {
    const t = setup({ limits: { statusPerMinute: 1_000 } });
    const { body } = await t.create();
    await t.clock.advance(5_000);
    const before = t.service.statuses.length;
    const answers = await Promise.all(Array.from({ length: 100 }, () => t.status(body.payment.id, body.token)));
    expect(answers.every((a) => a.response.status === 200)).toBe(true);
    expect(t.service.statuses.length - before).toBe(1);
  });

  it('shares an answer with requests that arrive within the window, and asks again after it', async () => {
    const t = setup();
    const { body } = await t.create();
    await t.clock.advance(5_000);
    const before = t.service.statuses.length;
    await t.status(body.payment.id, body.token);
    await t.clock.advance(500);
    await t.status(body.payment.id, body.token);
    expect(t.service.statuses.length - before).toBe(1);
    await t.clock.advance(2_000); // 2.5 s after the answer: still within the 3 s window
    await t.status(body.payment.id, body.token);
    expect(t.service.statuses.length - before).toBe(1);
    await t.clock.advance(1_000);
    await t.status(body.payment.id, body.token);
    expect(t.service.statuses.length - before).toBe(2);
  });

  it('answers a final payment from the store without asking the service', async () => {
    const t = setup();
    const { body } = await t.create();
    t.service.set(body.payment.id, { state: 'expired' });
    await t.clock.advance(5_000);
    expect((await t.status(body.payment.id, body.token)).body.payment.outcome).toBe('expired');
    const before = t.service.statuses.length;
    await t.clock.advance(5_000);
    const again = await t.status(body.payment.id, body.token);
    expect(again.body.payment).toMatchObject({ state: 'expired', final: true });
    expect(t.service.statuses.length).toBe(before);
  });

  it('retries a failing service with backoff and answers the right view', async () => {
    const t = setup();
    const { body } = await t.create();
    await t.clock.advance(5_000);
    let failures = 2;
    t.service.onStatus = () => (failures-- > 0 ? { status: 503, body: { oops: true } } : undefined);
    const answer = await drive(t.clock, t.status(body.payment.id, body.token));
    expect(failures).toBeLessThan(0);
    expect(answer.response.status).toBe(200);
    expect(answer.body.payment.state).toBe('pending');
  });

  it("gives up with 502 after the deadline, and never shows the service's words", async () => {
    const t = setup({ timeouts: { statusDeadlineMs: 2_000 } });
    const { body } = await t.create();
    await t.clock.advance(5_000);
    t.service.onStatus = () => ({ status: 500, body: { message: 'db password wrong' } });
    const before = t.service.statuses.length;
    const answer = await drive(t.clock, t.status(body.payment.id, body.token));
    expect(t.service.statuses.length - before).toBeGreaterThan(1);
    expect(answer.response.status).toBe(502);
    expect(JSON.stringify(answer.body)).not.toContain('password');
  });

  it('treats an answer with a present but wrong signature as an upstream error, never as the truth', async () => {
    const t = setup({ timeouts: { statusDeadlineMs: 1 } });
    const { body } = await t.create();
    await t.clock.advance(5_000);
    const forged = { ...t.service.payments.get(body.payment.id)!, state: 'finished', status: true };
    t.service.onStatus = async () => ({ body: forged, signature: await signBody('not-the-secret', JSON.stringify(forged)) });
    const answer = await t.status(body.payment.id, body.token);
    expect(answer.response.status).toBe(502);
    t.service.onStatus = () => ({ body: forged, signature: '' });
    await t.clock.advance(2_000);
    expect((await t.status(body.payment.id, body.token)).response.status).toBe(502);
    expect(t.updates.some((u) => u.payment.outcome === 'paid')).toBe(false);
  });

  it("takes this payment's entry from an array answer", async () => {
    const t = setup();
    const { body } = await t.create();
    await t.clock.advance(5_000);
    const other = t.service.add({ orderId: 'B-9', state: 'finished', created_at: '2026-01-15T11:00:00.000000Z' });
    t.service.onStatus = (req) => ({ body: [other, t.service.payments.get(String(req.paymentId))] });
    const answer = await t.status(body.payment.id, body.token);
    expect(answer.body.payment).toMatchObject({ id: body.payment.id, state: 'pending' });
  });

  it('answers 502 to a malformed status answer', async () => {
    const t = setup({ timeouts: { statusDeadlineMs: 1 } });
    const { body } = await t.create();
    await t.clock.advance(5_000);
    t.service.onStatus = () => ({ body: { id: body.payment.id } });
    expect((await t.status(body.payment.id, body.token)).response.status).toBe(502);
  });

  it('keeps payUrl across status calls and shows what was paid once paid, with initAmount when it differs', async () => {
    const t = setup();
    const { body } = await t.create();
    // The service recalculated the sum it asked for, and the payer paid at least the shop's price.
    t.service.set(body.payment.id, { state: 'finished', status: true, amount: '250.00', init_amount: '245.00' });
    await t.clock.advance(5_000);
    const answer = await t.status(body.payment.id, body.token);
    expect(answer.body.payment).toMatchObject({
      outcome: 'paid',
      final: true,
      amount: '250.00',
      initAmount: '245.00',
      payUrl: body.payment.payUrl,
    });
    expect(body.payment.initAmount).toBeUndefined();
  });

  it('calls a payment that paid less than the shop priced underpaid, never paid, for the browser and the hook', async () => {
    const t = setup({ resolveOrder: () => ({ amount: '499.00', currency: 'INR' }) });
    const { body } = await t.create();
    t.service.set(body.payment.id, { state: 'finished', status: true, amount: '1.00', init_amount: '499.00' });
    await t.clock.advance(5_000);
    const answer = await t.status(body.payment.id, body.token);
    expect(answer.body.payment).toMatchObject({
      state: 'finished',
      outcome: 'underpaid',
      final: true,
      amount: '1.00',
      initAmount: '499.00',
    });
    expect(t.updates.map((u) => u.payment.outcome)).toEqual(['waiting', 'underpaid']);
  });

  it('never calls a payment paid in another currency than the shop priced paid: the amounts cannot be compared', async () => {
    const log = capturingLogger();
    const t = setup({ resolveOrder: () => ({ amount: '499.00', currency: 'INR' }), logger: log.logger });
    const { body } = await t.create();
    // 499 roubles are about 450 rupees: the number matches, the money does not.
    t.service.set(body.payment.id, { state: 'finished', status: true, amount: '499.00', currency: 'RUB' });
    await t.clock.advance(5_000);
    const answer = await t.status(body.payment.id, body.token);
    expect(answer.body.payment).toMatchObject({ state: 'finished', outcome: 'underpaid', final: true, amount: '499.00', currency: 'RUB' });
    expect(t.updates.map((u) => u.payment.outcome)).toEqual(['waiting', 'underpaid']);
    expect((await t.store.getOrder('A-1'))?.paidBy).toBeUndefined();
    // The operator learns why at once: a service that reports every payment so would make each one underpaid.
    expect(log.lines.filter((line) => line.includes('another currency'))).toEqual([
      expect.stringContaining('"paid":"499.00 RUB","priced":"499.00 INR"'),
    ]);
  });

  it('stores and announces a new state seen in a status answer once', async () => {
    const t = setup();
    const { body } = await t.create();
    t.service.set(body.payment.id, { state: 'in_check' });
    await t.clock.advance(5_000);
    await t.status(body.payment.id, body.token);
    await t.clock.advance(5_000);
    await t.status(body.payment.id, body.token);
    expect(t.updates.map((u) => [u.payment.state, u.source])).toEqual([
      ['pending', 'create'],
      ['in_check', 'status'],
    ]);
  });
});
