import { describe, expect, it } from 'vitest';
import type { StoredView } from '../../../src/proxy/infrastructure/store.js';
import { mayFollow, stageOf } from '../../../src/proxy/ledger/transitions.js';
import { isFinalOutcome, outcomeOf } from '../../../src/shared/outcome.js';

const stored = (state: string): StoredView => {
  const outcome = outcomeOf(state);
  return { id: 'p1', orderId: 'A-1', method: 'upi', state, outcome, final: isFinalOutcome(outcome), amount: '1.00', currency: 'INR' };
};

describe('which state wins', () => {
  it('lets a payment move forward through created, waiting, checking and final, and never back', () => {
    expect(mayFollow(stored('created'), 'pending')).toBe(true);
    expect(mayFollow(stored('pending'), 'in_check')).toBe(true);
    expect(mayFollow(stored('in_check'), 'finished')).toBe(true);
    expect(mayFollow(stored('pending'), 'created')).toBe(false);
    expect(mayFollow(stored('in_check'), 'pending')).toBe(false);
  });

  it('lets states of one stage take turns, and a repeated state in to fill fields', () => {
    expect(mayFollow(stored('in_check'), 'dispute')).toBe(true);
    expect(mayFollow(stored('dispute'), 'in_check')).toBe(true);
    expect(mayFollow(stored('pending'), 'pending')).toBe(true);
  });

  it('never changes a final payment, underpaid ones included, and treats an unknown state as checking', () => {
    for (const final of ['finished', 'expired', 'canceled', 'failed']) {
      for (const next of ['pending', 'in_check', 'finished', 'expired', 'on_hold']) expect(mayFollow(stored(final), next)).toBe(false);
    }
    expect(mayFollow({ ...stored('finished'), outcome: 'underpaid' }, 'finished')).toBe(false);
    expect(stageOf('on_hold')).toBe('checking');
    expect(mayFollow(stored('on_hold'), 'pending')).toBe(false);
    expect(mayFollow(stored('on_hold'), 'finished')).toBe(true);
  });

  it('takes anything for a payment not stored yet', () => {
    expect(mayFollow(undefined, 'created')).toBe(true);
  });
});
