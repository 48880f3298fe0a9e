import { describe, expect, it } from 'vitest';
import { isFinalState, outcomeOf, settledOutcome, stateRank } from '../../src/shared/outcome.js';
import { readPaymentView } from '../../src/shared/payment-view.js';

describe('state -> outcome', () => {
  it('map every known state as the provider documents them', () => {
    expect(['created', 'pending', 'in_check', 'dispute', 'finished', 'canceled', 'expired', 'failed'].map(outcomeOf)).toEqual([
      'waiting',
      'waiting',
      'checking',
      'checking',
      'paid',
      'failed',
      'expired',
      'failed',
    ]);
  });

  it('treat a state it does not know as checking, never final', () => {
    expect(outcomeOf('refunded')).toBe('checking');
    expect(isFinalState('refunded')).toBe(false);
    expect(outcomeOf('__proto__')).toBe('checking');
  });

  it('rank later states above earlier ones and final states highest', () => {
    expect(stateRank('created')).toBeLessThan(stateRank('pending'));
    expect(stateRank('pending')).toBeLessThan(stateRank('in_check'));
    expect(stateRank('in_check')).toBeLessThan(stateRank('finished'));
    expect(stateRank('expired')).toBe(stateRank('finished'));
  });

  it('never call a finish a paisa short of the price paid, however large the sum', () => {
    const inr = (amount: string) => ({ amount, currency: 'INR' });
    expect(settledOutcome('finished', inr('9999999999999.98'), inr('9999999999999.99'))).toBe('underpaid');
    expect(settledOutcome('finished', inr('9999999999999.99'), inr('9999999999999.99'))).toBe('paid');
    // Past 15 significant digits two sums a paisa apart were one number of paise, and these were "paid".
    expect(settledOutcome('finished', inr('99999999999999.00'), inr('99999999999999.01'))).toBe('underpaid');
    expect(settledOutcome('finished', inr('999999999999999.98'), inr('999999999999999.99'))).toBe('underpaid');
  });
});

describe('readPaymentView', () => {
  const view = {
    id: 'p1',
    orderId: 'A-1',
    method: 'upi',
    state: 'finished',
    outcome: 'waiting',
    final: false,
    amount: '10.00',
    currency: 'INR',
    createdAt: 'a',
    expiresAt: 'b',
    serverTime: 'c',
    requisites: { address: 'x@y', recipient: 42 },
    userId: 'secret-user',
  };

  it('derive outcome and final from the state instead of trusting them', () => {
    const read = readPaymentView(view)!;
    expect(read.outcome).toBe('paid');
    expect(read.final).toBe(true);
  });

  it('take superseded from the proxy, which only it can know, but never let it hide an expired or failed payment', () => {
    expect(readPaymentView({ ...view, state: 'pending', outcome: 'superseded' })).toMatchObject({ outcome: 'superseded', final: true });
    expect(readPaymentView({ ...view, state: 'finished', outcome: 'superseded' })!.outcome).toBe('superseded');
    expect(readPaymentView({ ...view, state: 'expired', outcome: 'superseded' })!.outcome).toBe('expired');
    expect(readPaymentView({ ...view, state: 'pending', outcome: 'paid' })!.outcome).toBe('waiting');
  });

  it('keep only the fields the browser may see, with the right types', () => {
    const read = readPaymentView(view)! as unknown as Record<string, unknown>;
    expect(read.userId).toBeUndefined();
    expect(read.requisites).toEqual({ address: 'x@y' });
  });

  it('refuse an answer that lacks a required field', () => {
    expect(readPaymentView({ ...view, amount: 10 })).toBeUndefined();
    expect(readPaymentView(null)).toBeUndefined();
    expect(readPaymentView('x')).toBeUndefined();
  });
});
