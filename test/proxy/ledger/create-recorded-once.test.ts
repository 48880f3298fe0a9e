import { describe, expect, it } from 'vitest';
import { setup } from '../harness.js';

// The documented create answer has no expiry, and the browser needs one: the proxy asks the service about the
// new payment right away. What both said is recorded in one write, not recorded, asked about and recorded again
// (which took the create through the ledger twice and published a view no browser could use).
describe('a create whose answer lacks the expiry', () => {
  it('records the payment once, complete, and publishes it once', async () => {
    const t = setup();
    const published: string[] = [];
    const publish = t.store.publish.bind(t.store);
    t.store.publish = (channel, message) => {
      published.push(channel);
      return publish(channel, message);
    };
    const { response, body } = await t.create('A-1');
    expect(response.status).toBe(201);
    expect(body.payment.expiresAt).toBeTruthy();
    expect(t.service.paymentStatuses).toHaveLength(1);
    const record = await t.store.getPayment(body.payment.id);
    expect(record).toMatchObject({ version: 1, view: { expiresAt: body.payment.expiresAt } });
    expect(published).toEqual([`payment:${body.payment.id}`]);
    const states = (await t.store.paymentHistory(body.payment.id)).filter((line) => line.kind === 'state');
    expect(states).toHaveLength(1);
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
