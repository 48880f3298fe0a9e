import { describe, expect, it } from 'vitest';
import { parseCreateAnswer } from '../../src/shared/provider-messages.js';
import { formatServiceTimestamp } from '../../src/shared/timestamps.js';
import { createSandbox } from '../../src/sandbox/index.js';
import { ManualClock } from '../../src/shared/manual-clock.js';
import { createBody, readRefused, readSigned, setup, signedRequest, status } from './helpers.js';

describe('creating a payment', () => {
  it('answers the documented envelope, signed, with a hosted page under the sandbox', async () => {
    const { sandbox } = setup();
    const response = await sandbox(await signedRequest('/api/v2/payments', createBody()));
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^application\/json/);
    const body = await readSigned(response);
    expect(body.status).toBe(true);
    expect(Object.keys(body.result).sort()).toEqual(['address', 'amount', 'bank', 'bankName', 'id', 'rate', 'recipient', 'state']);
    expect(body.result).toMatchObject({ amount: '250.00', state: 'created', rate: 1, address: '' });
    expect(body.result.id).toMatch(/^[0-9a-f]{13}$/);
    expect(body.url).toBe(`http://127.0.0.1:4010/pay/${body.result.id}`);
    expect(body).not.toHaveProperty('expired_at');
    // The shared parser (what the proxy uses) understands it and knows it must complete it with a status call.
    const parsed = parseCreateAnswer(body);
    expect(parsed.ok && parsed.value.incomplete).toBe(true);
  });

  it('gives ids of 13 hex digits that encode the time and stay unique within one millisecond', async () => {
    const { sandbox, clock } = setup();
    const ids = [];
    for (let i = 0; i < 5; i++) ids.push(await createPayment(sandbox, i));
    expect(new Set(ids).size).toBe(5);
    expect([...ids].sort()).toEqual(ids);
    expect(parseInt(ids[0]!.slice(0, 8), 16)).toBe(Math.floor(clock.now() / 1000));
  });

  it('keeps every field of the spec in its format on the payment it created', async () => {
    const { sandbox, clock } = setup({ ttlSeconds: 600 });
    const id = await createPayment(sandbox, 0);
    const payment = await readSigned(await status(sandbox, { paymentId: id }));
    expect(payment).toEqual({
      datetime: Math.floor(clock.now() / 1000),
      id,
      orderId: 'A-0',
      created_at: formatServiceTimestamp(clock.now()),
      expired_at: formatServiceTimestamp(clock.now() + 600_000),
      status: false,
      state: 'created',
      type: 'payin',
      userId: '1001',
      amount: '250.00',
      init_amount: '250.00',
      amount_commission_less: 250,
      currency: 'INR',
      rate: 1,
      commission: 0,
      method: 'upi',
      media: [],
    });
    expect(payment.created_at).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/);
  });

  it('normalises the amount, takes the payer userId and charges the configured commission', async () => {
    const { sandbox } = setup({ commissionPercent: 2.5, rate: 92.5 });
    const res = await sandbox(await signedRequest('/api/v2/payments', createBody({ amount: '99.9', payer: { userId: 'shopper-7' } })));
    const id = (await readSigned(res)).result.id;
    const payment = await readSigned(await status(sandbox, { paymentId: id }));
    expect(payment).toMatchObject({ amount: '99.90', init_amount: '99.90', userId: 'shopper-7', rate: 92.5, commission: 2.5 });
    expect(payment.amount_commission_less).toBe(97.4);
  });

  it('answers a bare Payment object when createAnswer is "payment"', async () => {
    const { sandbox } = setup({ createAnswer: 'payment' });
    const body = await readSigned(await sandbox(await signedRequest('/api/v2/payments', createBody())));
    expect(body).toMatchObject({ state: 'created', type: 'payin', amount: '250.00', method: 'upi', orderId: 'A-1001' });
    expect(body.id).toMatch(/^[0-9a-f]{13}$/);
    expect(body).not.toHaveProperty('result');
  });

  it('creates a new payment for a second create with the same orderId', async () => {
    const { sandbox } = setup();
    const first = await createPayment(sandbox, 1);
    const second = await createPayment(sandbox, 1);
    expect(second).not.toBe(first);
    expect(sandbox.payments().map((p) => p.id)).toEqual([second, first]);
  });

  it('builds the hosted page URL from publicUrl, never from the Host header', async () => {
    const sandbox = createSandbox({ clock: new ManualClock(), publicUrl: 'https://sandbox.example.test/' });
    const request = await signedRequest('/api/v2/payments', createBody());
    const spoofed = new Request('http://evil.test/api/v2/payments', {
      method: 'POST',
      headers: request.headers,
      body: await request.text(),
    });
    const body = await readSigned(await sandbox(spoofed));
    expect(body.url).toBe(`https://sandbox.example.test/pay/${body.result.id}`);
    sandbox.close();
  });

  it('refuses a currency that the method cannot carry: sbp moves roubles only and upi rupees only', async () => {
    const { sandbox } = setup();
    const cases: [Record<string, unknown>, RegExp][] = [
      [createBody({ method: 'sbp', currency: 'INR' }), /currency must be RUB for sbp/],
      [createBody({ method: 'upi', currency: 'RUB' }), /currency must be INR for upi/],
    ];
    for (const [body, message] of cases) {
      const response = await sandbox(await signedRequest('/api/v2/payments', body));
      expect((await readRefused(response, 400)).message, JSON.stringify(body)).toMatch(message);
    }
    expect(sandbox.payments()).toEqual([]);
    for (const fields of [
      { method: 'sbp', currency: 'RUB' },
      { method: 'upi', currency: 'INR' },
      { method: 'c2c', currency: 'RUB' },
    ]) {
      expect((await sandbox(await signedRequest('/api/v2/payments', createBody(fields)))).status).toBe(200);
    }
  });

  it('takes a whole sum of a currency without decimals however it is written, and refuses one with cents', async () => {
    const { sandbox } = setup();
    for (const amount of ['250', '2510', '499.00', '499.0', '1000']) {
      const response = await sandbox(await signedRequest('/api/v2/payments', createBody({ amount, currency: 'JPY', method: 'c2c' })));
      expect((await readSigned(response)).result, `${amount} yen`).toMatchObject({ amount: expect.stringMatching(/\.00$/) });
    }
    for (const amount of ['499.50', '499.5', '499.05']) {
      const response = await sandbox(await signedRequest('/api/v2/payments', createBody({ amount, currency: 'JPY', method: 'c2c' })));
      expect((await readRefused(response, 400)).message, `${amount} yen`).toMatch(/decimals its currency does not/);
    }
    expect(sandbox.payments()).toHaveLength(5);
  });

  it('refuses a payment with a field missing or wrong, naming the field, and creates nothing', async () => {
    const { sandbox } = setup();
    const cases: [Record<string, unknown>, RegExp][] = [
      [createBody({ amount: 250 }), /amount/],
      [createBody({ amount: '0.00' }), /amount must be greater than zero/],
      [createBody({ amount: '1.234' }), /amount/],
      // More than a double and a count of paise hold exactly: as the proxy refuses to price, the service is not asked.
      [createBody({ amount: '99999999999999.99' }), /at most 13 whole digits/],
      [createBody({ amount: '499.50', currency: 'JPY', method: 'c2c' }), /decimals its currency does not/],
      [createBody({ orderId: undefined }), /orderId/],
      [createBody({ currency: 'inr' }), /currency/],
      [createBody({ callbackUri: 'ftp://x.test/' }), /callbackUri/],
      [createBody({ method: 'bitcoin' }), /method must be one of sbp, upi, c2c/],
      [createBody({ extra: 1 }), /extra/],
    ];
    for (const [body, message] of cases) {
      const response = await sandbox(await signedRequest('/api/v2/payments', body));
      expect((await readRefused(response, 400)).message, JSON.stringify(body)).toMatch(message);
    }
    expect(sandbox.payments()).toEqual([]);
  });
});

async function createPayment(sandbox: ReturnType<typeof createSandbox>, n: number): Promise<string> {
  const response = await sandbox(await signedRequest('/api/v2/payments', createBody({ orderId: `A-${n}` })));
  return (await readSigned(response)).result.id;
}
