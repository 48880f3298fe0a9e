import { describe, expect, it } from 'vitest';
import { paymentAnswerJson, toPaymentView } from '../../../src/proxy/http/payment-answer.js';
import { mergeObservation } from '../../../src/proxy/ledger/payment-view-mapper.js';

const context = { orderId: 'A-1', method: 'sbp', amount: '250.00', currency: 'RUB' };

describe('mergeObservation', () => {
  it('takes an SBP QR link from media and keeps requisites a later answer leaves out', () => {
    const first = mergeObservation(
      undefined,
      {
        id: 'p1',
        state: 'pending',
        created_at: '2026-01-15T10:00:00.123456Z',
        expired_at: '2026-01-15T10:15:00.123456Z',
        media: ['https://qr.nspk.ru/AD10006M?type=02&sum=25000&cur=RUB'],
        requisites: { address: '+79990001122', recipient: 'Ivan P.', bank: 'Bank' },
        userId: 'u-9',
        commission: 3,
      },
      context,
    );
    expect(first.qr).toBe('https://qr.nspk.ru/AD10006M?type=02&sum=25000&cur=RUB');
    expect(first).not.toHaveProperty('userId');
    const later = mergeObservation(first, { id: 'p1', state: 'in_check' });
    expect(later.requisites).toEqual({ address: '+79990001122', recipient: 'Ivan P.', bank: 'Bank' });
    expect(later.qr).toBe(first.qr);
    expect(toPaymentView(later, Date.UTC(2026, 0, 15, 10, 1))).toMatchObject({
      createdAt: '2026-01-15T10:00:00.123Z',
      expiresAt: '2026-01-15T10:15:00.123Z',
      serverTime: '2026-01-15T10:01:00.000Z',
      outcome: 'checking',
    });
  });

  it('returns the same object when nothing the browser sees changed', () => {
    const view = mergeObservation(
      undefined,
      { id: 'p1', state: 'pending', created_at: '2026-01-15T10:00:00Z', expired_at: '2026-01-15T10:15:00Z' },
      context,
    );
    expect(mergeObservation(view, { id: 'p1', state: 'pending', datetime: 1_768_471_300 })).toBe(view);
  });

  it('treats an unknown state as checking, not final, and lets a known state follow it', () => {
    const view = mergeObservation(undefined, { id: 'p1', state: 'on_hold' }, context);
    expect(view).toMatchObject({ outcome: 'checking', final: false });
    expect(mergeObservation(view, { id: 'p1', state: 'finished' }).outcome).toBe('paid');
  });
});

describe('paymentAnswerJson', () => {
  it('writes the same text as JSON.stringify({payment: toPaymentView(view, now)}), and refuses the same views', () => {
    const open = mergeObservation(
      undefined,
      {
        id: 'p1',
        state: 'pending',
        created_at: '2026-01-15T10:00:00Z',
        expired_at: '2026-01-15T10:15:00Z',
        requisites: { address: 'payee@okdemo', recipient: 'Ravi "R" Kumar' },
      },
      { ...context, method: 'upi', currency: 'INR' },
    );
    const paid = mergeObservation(open, { id: 'p1', state: 'finished' });
    for (const [view, now] of [
      [open, Date.UTC(2026, 0, 15, 10, 1)],
      [paid, Date.UTC(2026, 0, 15, 10, 2, 3, 4)],
    ] as const) {
      expect(paymentAnswerJson(view, now)).toBe(JSON.stringify({ payment: toPaymentView(view, now) }));
    }
    // A frozen view (the memory store's) has its JSON kept: each version still answers as itself, at each time.
    const frozenOpen = Object.freeze(structuredClone(open));
    const frozenPaid = Object.freeze(structuredClone(paid));
    for (const now of [1, 2, 1]) {
      for (const view of [frozenOpen, frozenPaid]) {
        expect(paymentAnswerJson(view, now)).toBe(JSON.stringify({ payment: toPaymentView(view, now) }));
      }
    }
    const unknownExpiry = mergeObservation(undefined, { id: 'p2', state: 'pending' }, context);
    expect(() => paymentAnswerJson(unknownExpiry, 0)).toThrow(/expiry/);
    expect(() => toPaymentView(unknownExpiry, 0)).toThrow(/expiry/);
  });
});
