import { describe, expect, it } from 'vitest';
import { setup } from '../harness.js';

// The documented create answer has no expiry, and the browser needs one: the ledger records what the create
// answered and completes the record at once through the status path, before the create answers.
describe('a create whose answer lacks the expiry', () => {
  it('answers with the expiry a status call right after the create told, and stores it', async () => {
    const t = setup();
    const { response, body } = await t.create('A-1');
    expect(response.status).toBe(201);
    expect(body.payment.expiresAt).toBeTruthy();
    expect(t.service.paymentStatuses).toHaveLength(1);
    expect((await t.store.getPayment(body.payment.id))?.view.expiresAt).toBe(body.payment.expiresAt);
  });

  it("lets the first status poll share the create's own status call, as a refresh would", async () => {
    const t = setup();
    const { body } = await t.create('A-1');
    const before = t.service.paymentStatuses.length;
    expect((await t.status(body.payment.id, body.token)).response.status).toBe(200);
    expect(t.service.paymentStatuses).toHaveLength(before);
  });

  it('still records the payment, for the next create to hand out, when that status call fails', async () => {
    const t = setup();
    t.service.onStatus = (sent) => (sent.paymentId !== undefined ? { status: 400, body: { status: false, code: 7 } } : undefined);
    const first = await t.create('A-1');
    expect(first.response.status).toBeGreaterThanOrEqual(500);
    expect(t.service.creates).toHaveLength(1);
    t.service.onStatus = () => undefined;
    const again = await t.create('A-1');
    expect(again.response.status).toBe(200);
    expect(t.service.creates).toHaveLength(1);
    expect(again.body.payment.expiresAt).toBeTruthy();
  });
});
