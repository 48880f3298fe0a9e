import { describe, expect, it } from 'vitest';
import { verifySignature } from '../../../src/shared/hmac.js';
import { CALLBACK_URL, setup, until } from '../harness.js';
import { MERCHANT, SECRET, TOKEN } from '../fake-service.js';

describe('POST /payin/payments', () => {
  it('creates a payment priced by the shop and answers 201 with the view and a long random token', async () => {
    const t = setup();
    const { response, body } = await t.create('A-1', 'upi');
    expect(response.status).toBe(201);
    expect(body.token.length).toBeGreaterThanOrEqual(22); // >= 128 bits of base64url
    expect(body.payment).toMatchObject({
      orderId: 'A-1',
      method: 'upi',
      state: 'pending',
      outcome: 'waiting',
      final: false,
      amount: '250.00',
      currency: 'INR',
      createdAt: '2026-01-15T10:00:00.000Z',
      expiresAt: '2026-01-15T10:15:00.000Z',
      serverTime: new Date(t.clock.now()).toISOString(),
      requisites: { address: 'shop@okbank', recipient: 'Shop Ltd', bank: 'OK Bank' },
      payUrl: expect.stringMatching(/^https:\/\/pay\.test\//),
    });
    expect(body.payment.qr).toMatch(/^upi:\/\/pay\?pa=shop%40okbank&pn=Shop%20Ltd&am=250.00&cu=INR&tr=A-1/);
  });

  it('never shows userId, commission, rate or merchantId to the browser', async () => {
    const t = setup();
    const { body } = await t.create();
    const text = JSON.stringify(body);
    for (const word of ['userId', 'user-7', 'commission', 'rate', 'merchantId', MERCHANT]) expect(text).not.toContain(word);
  });

  it("sends only the configured merchant, callback URL and the shop's price, signed over the exact bytes", async () => {
    const t = setup({ resolveOrder: () => ({ amount: 99.5, currency: 'INR' }) });
    await t.create('A-7', 'upi');
    expect(t.service.creates).toHaveLength(1);
    const sent = t.service.creates[0]!;
    expect(sent.body).toEqual({
      amount: '99.50',
      orderId: 'A-7',
      currency: 'INR',
      method: 'upi',
      merchantId: MERCHANT,
      callbackUri: CALLBACK_URL,
    });
    expect(sent.headers.get('authorization')).toBe(`Bearer ${TOKEN}`);
    expect(await verifySignature(SECRET, sent.text, sent.headers.get('signature'))).toBe(true);
  });

  it('refuses an amount, merchantId or callbackUri from the browser as unknown fields, and sends nothing', async () => {
    const t = setup();
    for (const extra of [{ amount: '1.00' }, { merchantId: 'evil' }, { callbackUri: 'https://evil.test/cb' }, { currency: 'USD' }]) {
      const response = await t.post('/payments', { orderId: 'A-1', method: 'upi', ...extra });
      expect(response.status).toBe(400);
      expect(((await response.json()) as { error: { code: string } }).error.code).toBe('unknown_field');
    }
    expect(t.service.sent).toHaveLength(0);
  });

  it('answers 404 when resolveOrder does not know the order, and 400 for a method that is not offered', async () => {
    const t = setup();
    expect((await t.create('missing-1')).response.status).toBe(404);
    const bad = await t.create('A-1', 'bitcoin');
    expect(bad.response.status).toBe(400);
    expect(t.service.sent).toHaveLength(0);
  });

  it('completes an envelope answer with exactly one status call', async () => {
    const t = setup();
    await t.create();
    expect(t.service.creates).toHaveLength(1);
    expect(t.service.paymentStatuses).toHaveLength(1);
  });

  it('needs no status call when the create answer is a complete Payment', async () => {
    const t = setup();
    t.service.createShape = 'payment';
    const { response } = await t.create();
    expect(response.status).toBe(201);
    expect(t.service.paymentStatuses).toHaveLength(0);
  });

  it('gives a second click on the same order and method the same pending payment with 200', async () => {
    const t = setup();
    const first = await t.create('A-1', 'upi');
    const second = await t.create('A-1', 'upi');
    expect(second.response.status).toBe(200);
    expect(second.body.payment.id).toBe(first.body.payment.id);
    expect((await t.status(first.body.payment.id, second.body.token)).response.status).toBe(200);
    expect(t.service.creates).toHaveLength(1);
  });

  it('makes one upstream create for ten concurrent creates of one order', async () => {
    const t = setup();
    const answers = await Promise.all(Array.from({ length: 10 }, () => t.create('A-1', 'upi')));
    expect(t.service.creates).toHaveLength(1);
    expect(answers.map((a) => a.response.status).sort()).toEqual([200, 200, 200, 200, 200, 200, 200, 200, 200, 201]);
    expect(new Set(answers.map((a) => a.body.payment.id)).size).toBe(1);
  });

  it('creates a new payment when the shopper picks another method', async () => {
    const t = setup();
    const upi = await t.create('A-1', 'upi');
    const sbp = await t.create('A-1', 'sbp');
    expect(sbp.response.status).toBe(201);
    expect(sbp.body.payment.id).not.toBe(upi.body.payment.id);
  });

  it('creates a new payment after the previous one expired or failed, and refuses with 409 once paid', async () => {
    const t = setup();
    const first = await t.create('A-1');
    t.service.set(first.body.payment.id, { state: 'expired' });
    await t.clock.advance(4_000); // past the window in which status answers are shared
    const second = await t.create('A-1');
    expect(second.response.status).toBe(201);
    expect(second.body.payment.id).not.toBe(first.body.payment.id);
    t.service.set(second.body.payment.id, { state: 'finished', status: true });
    // Paid at the service, no callback yet, and within the window in which status answers are shared: a create
    // for another method still asks afresh instead of trusting the shared "pending" and paying twice.
    await t.clock.advance(2_000);
    const third = await t.create('A-1', 'sbp');
    expect(third.response.status).toBe(409);
    expect(third.body.error?.code).toBe('order_paid');
  });

  it('looks the order up after a create timeout and adopts the payment the service made', async () => {
    const t = setup();
    t.service.onCreate = (body) => {
      t.service.add({ orderId: String(body.orderId) });
      return 'hang';
    };
    const pending = t.create('A-1');
    await until(() => t.service.creates.length === 1);
    await t.clock.advance(15_000);
    const { response, body } = await pending;
    expect(response.status).toBe(201);
    expect(t.service.creates).toHaveLength(1);
    expect(t.service.statuses[0]!.body).toEqual({ merchantId: MERCHANT, orderId: 'A-1' });
    expect(body.payment.state).toBe('pending');
  });

  it('answers 504 when the create timed out and the order is unknown, and a later click tries again', async () => {
    const t = setup();
    t.service.onCreate = () => 'hang';
    const pending = t.create('A-1');
    await until(() => t.service.creates.length === 1);
    await t.clock.advance(15_000);
    const first = await pending;
    expect(first.response.status).toBe(504);
    expect(first.body.error?.code).toBe('upstream_timeout');
    t.service.onCreate = () => undefined;
    const second = await t.create('A-1');
    expect(second.response.status).toBe(201);
    expect(t.service.creates).toHaveLength(2);
  });

  it('answers 502 when the connection fails and the lookup finds nothing, without retrying the create', async () => {
    const t = setup();
    t.service.onCreate = () => 'network-error';
    const { response } = await t.create('A-1');
    expect(response.status).toBe(502);
    expect(t.service.creates).toHaveLength(1);
  });

  it('answers 502 without a lookup when the service refuses the payment', async () => {
    const t = setup();
    t.service.onCreate = () => ({ body: { status: false, code: 12, message: 'merchant blocked; internal note' } });
    const { response, body } = await t.create('A-1');
    expect(response.status).toBe(502);
    expect(JSON.stringify(body)).not.toContain('internal note');
    // One look-up of the unknown order before the create; none after the refusal.
    expect(t.service.orderLookups).toHaveLength(1);
    expect(t.service.paymentStatuses).toHaveLength(0);
  });

  it('announces the new payment to the shop once', async () => {
    const t = setup();
    await t.create('A-1');
    await t.create('A-1');
    expect(t.updates.map((u) => [u.payment.state, u.source])).toEqual([['pending', 'create']]);
  });
});

describe('POST /payin/payments after a create that ended without an answer', () => {
  it('does not create again while the service cannot say whether the first create took effect', async () => {
    const t = setup({ timeouts: { statusDeadlineMs: 1 } });
    t.service.onCreate = () => 'network-error';
    expect((await t.create('A-1')).response.status).toBe(502);
    t.service.onStatus = () => ({ status: 503, body: {} });
    t.service.onCreate = () => undefined;
    expect((await t.create('A-1')).response.status).toBe(502);
    expect(t.service.creates).toHaveLength(1);
    t.service.onStatus = () => undefined;
    expect((await t.create('A-1')).response.status).toBe(201);
    expect(t.service.creates).toHaveLength(2);
  });
});
