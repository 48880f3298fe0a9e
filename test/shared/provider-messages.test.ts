import { describe, expect, it } from 'vitest';
import {
  createPaymentRequestSchema,
  parseCallbackBody,
  parseCreateAnswer,
  parseStatusAnswer,
  parseStatusList,
  statusRequestSchema,
} from '../../src/shared/provider-messages.js';

// The status sample of the spec, with the fields as the service writes them.
const payment = {
  datetime: 1721988930,
  id: '66a3942dc1d4f',
  orderId: 'A-1001',
  created_at: '2024-07-26T10:15:30.123456Z',
  expired_at: '2024-07-26T10:30:30.123456Z',
  status: false,
  state: 'pending',
  type: 'payin',
  userId: 'u-1',
  amount: '250.00',
  init_amount: '250.00',
  amount_commission_less: 245.5,
  currency: 'RUB',
  rate: 1,
  commission: 4.5,
  method: 'sbp',
  media: [],
  requisites: { address: '+79001234567', recipient: 'Ivan P.', bank: 'Demo Bank' },
};

const create = {
  amount: '250.00',
  orderId: 'A-1001',
  currency: 'INR',
  method: 'upi',
  merchantId: 'demo-merchant',
  callbackUri: 'https://shop.example/payin/callback',
};

describe('what we send', () => {
  it('accept a complete create request', () => {
    expect(createPaymentRequestSchema.parse(create)).toEqual(create);
  });

  it('refuse unknown fields, float amounts, three decimals, zero and a bad currency, naming the field', () => {
    expect(createPaymentRequestSchema.safeParse({ ...create, extra: 1 }).success).toBe(false);
    for (const [field, value] of [
      ['amount', 250],
      ['amount', '1.234'],
      ['amount', '0.00'],
      ['currency', 'inr'],
      ['callbackUri', 'ftp://x'],
      ['orderId', ''],
    ] as const) {
      const result = createPaymentRequestSchema.safeParse({ ...create, [field]: value });
      expect(result.success, `${field}=${value}`).toBe(false);
      expect(result.error!.issues[0]!.path).toEqual([field]);
    }
  });

  it('take exactly one way of naming the payments in a status request', () => {
    expect(statusRequestSchema.safeParse({ merchantId: 'm', paymentId: 'p' }).success).toBe(true);
    expect(statusRequestSchema.safeParse({ merchantId: 'm', orderIds: ['a', 'b'] }).success).toBe(true);
    expect(statusRequestSchema.safeParse({ merchantId: 'm' }).success).toBe(false);
    expect(statusRequestSchema.safeParse({ merchantId: 'm', paymentId: 'p', orderId: 'o' }).success).toBe(false);
    expect(statusRequestSchema.safeParse({ merchantId: 'm', paymentIds: [] }).success).toBe(false);
  });
});

describe('what comes back', () => {
  it('read the documented create envelope and mark it incomplete (it has no expiry)', () => {
    const parsed = parseCreateAnswer({
      status: true,
      result: {
        amount: 250,
        id: '66a3942dc1d4f',
        state: 'created',
        address: '+79001234567',
        bank: 'b',
        recipient: 'r',
        rate: 1,
        bankName: 'Bank',
      },
      url: 'https://pay.example/66a3942dc1d4f',
    });
    expect(parsed.ok).toBe(true);
    if (!parsed.ok) return;
    expect(parsed.value.payment.id).toBe('66a3942dc1d4f');
    expect(parsed.value.payment.amount).toBe('250.00');
    expect(parsed.value.payment.requisites).toEqual({ address: '+79001234567', recipient: 'r', bank: 'b' });
    expect(parsed.value.url).toBe('https://pay.example/66a3942dc1d4f');
    expect(parsed.value.incomplete).toBe(true);
  });

  it('read an envelope whose payee is not assigned yet (null or empty requisites) without inventing requisites', () => {
    for (const empty of [null, '']) {
      const parsed = parseCreateAnswer({
        status: true,
        result: { id: 'x', state: 'created', amount: '1.00', address: empty, bank: empty, recipient: empty, bankName: empty },
        url: null,
      });
      expect(parsed.ok).toBe(true);
      if (parsed.ok) {
        expect(parsed.value.payment.requisites).toBeUndefined();
        expect(parsed.value.url).toBeUndefined();
      }
    }
  });

  it('read a bare Payment as a complete create answer', () => {
    const parsed = parseCreateAnswer(payment);
    expect(parsed.ok && parsed.value.incomplete).toBe(false);
  });

  it('turn a refusal into an error with the code and message', () => {
    const parsed = parseCreateAnswer({ status: false, code: 1003, message: 'Invalid amount' });
    expect(parsed).toEqual({ ok: false, error: expect.stringMatching(/1003.*Invalid amount/) });
  });

  it('read a status answer as an object or an array', () => {
    expect(parseStatusAnswer(payment)).toMatchObject({ ok: true, value: [{ id: '66a3942dc1d4f' }] });
    expect(parseStatusAnswer([payment, { ...payment, id: 'x' }])).toMatchObject({ ok: true, value: [{}, { id: 'x' }] });
    expect(parseStatusAnswer({ status: false, code: 404, message: 'not found' }).ok).toBe(false);
    expect(parseStatusAnswer('<html>').ok).toBe(false);
  });

  it('read each payment of a status answer about several on its own, naming the ones it cannot read', () => {
    const odd = { ...payment, id: 'odd', requisites: { address: null } };
    expect(parseStatusList([payment, odd])).toMatchObject({
      ok: true,
      value: { payments: [{ id: '66a3942dc1d4f' }], unreadable: [{ id: 'odd', error: expect.stringContaining('requisites') }] },
    });
    expect(parseStatusList([payment, { state: 'finished' }]).ok).toBe(false);
    expect(parseStatusList({ status: false, code: 404, message: 'not found' }).ok).toBe(false);
  });

  it('read a sparse callback tolerantly: missing fields, numbers as strings, unknown fields kept', () => {
    const parsed = parseCallbackBody({
      id: 123,
      state: 'finished',
      status: 'true',
      amount_commission_less: '245.50',
      amount: 250,
      extra: 'x',
      requisites: null,
    });
    expect(parsed.ok).toBe(true);
    if (!parsed.ok) return;
    expect(parsed.value).toMatchObject({
      id: '123',
      state: 'finished',
      status: true,
      amount_commission_less: 245.5,
      amount: '250.00',
      extra: 'x',
    });
  });

  it('refuse a callback without an id or state', () => {
    expect(parseCallbackBody({ state: 'finished' }).ok).toBe(false);
    expect(parseCallbackBody({ id: 'x' }).ok).toBe(false);
  });
});
