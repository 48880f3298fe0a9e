import { describe, expect, it } from 'vitest';
import { fromMinorUnits, isAmount, isPositiveAmount, normalizeAmount, toMinorUnits } from '../../src/shared/money.js';

describe('money', () => {
  it('normalise amounts that arrive as strings or numbers to two decimals', () => {
    expect(normalizeAmount('250')).toBe('250.00');
    expect(normalizeAmount('250.5')).toBe('250.50');
    expect(normalizeAmount(250.5)).toBe('250.50');
    // A float artifact rounds to its cents; a real third decimal is refused.
    expect(normalizeAmount(0.1 + 0.2)).toBe('0.30');
    expect(normalizeAmount(1.234)).toBeUndefined();
    expect(normalizeAmount(' 0099.10 ')).toBe('99.10');
    expect(normalizeAmount('0')).toBe('0.00');
  });

  it('refuse negatives, three decimals, exponents and non-numbers', () => {
    for (const bad of ['-1', '1.234', '1e3', 'abc', '', '.5', null, undefined, NaN, Infinity, -2, {}]) {
      expect(normalizeAmount(bad)).toBeUndefined();
    }
  });

  it('convert to and from minor units without floating-point error', () => {
    expect(toMinorUnits('250.05')).toBe(25005);
    expect(toMinorUnits('0.29')).toBe(29);
    expect(fromMinorUnits(25005)).toBe('250.05');
    expect(fromMinorUnits(7)).toBe('0.07');
    expect(() => toMinorUnits('x')).toThrow(/Not an amount/);
    expect(() => fromMinorUnits(1.5)).toThrow();
  });

  it('tell canonical and positive amounts apart', () => {
    expect(isAmount('10.00')).toBe(true);
    expect(isAmount('10')).toBe(false);
    expect(isPositiveAmount('0.00')).toBe(false);
    expect(isPositiveAmount('0.01')).toBe(true);
  });
});
