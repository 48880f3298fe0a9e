import { describe, expect, it } from 'vitest';
import { chargeablePrice, fromMinorUnits, isAmount, isPositiveAmount, normalizeAmount, toMinorUnits } from '../../src/shared/money.js';

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

  it('refuse a number with decimals the currency does not have, however few, yet read a sum of prices in floats', () => {
    // 499.9999999999 was "500.00" (any number within 1e-9 of its cents was): a shop's price charged rounded.
    for (const bad of [499.9999999999, 499.99999999999, 1e-10, 0.004999999999, 9999999999999.984]) {
      expect(normalizeAmount(bad), String(bad)).toBeUndefined();
    }
    // What adding or multiplying prices in floats gives is a few units in the last place off: read as its cents.
    expect(normalizeAmount(19.99 * 3)).toBe('59.97');
    expect(normalizeAmount(1.15 * 100)).toBe('115.00');
    expect(normalizeAmount(0.1 * 3)).toBe('0.30');
    expect(normalizeAmount(1234567.1 + 0.2)).toBe('1234567.30');
    expect(normalizeAmount(9999999999999.99)).toBe('9999999999999.99');
  });

  it('refuse more whole digits than every layer holds exactly: a paisa must never vanish in a double', () => {
    // 13 whole digits and 2 decimals are 15 significant digits: exact in a double, and in paise below 2^53.
    expect(normalizeAmount('9999999999999.99')).toBe('9999999999999.99');
    expect(toMinorUnits('9999999999999.99')).toBe(999_999_999_999_999);
    expect(Number('9999999999999.99').toFixed(2)).toBe('9999999999999.99');
    // One digit more and two prices a paisa apart were one number (99999999999999.00 and .01 in paise, .98 and .99 as doubles).
    for (const big of ['10000000000000.00', '99999999999999.99', '999999999999999.99', 99999999999999.98]) {
      expect(normalizeAmount(big), String(big)).toBeUndefined();
      expect(chargeablePrice({ amount: big, currency: 'INR' }), String(big)).toBeUndefined();
    }
    // Zeros before the digits are no digits.
    expect(normalizeAmount('0009999999999999.99')).toBe('9999999999999.99');
  });

  it('refuse a price with a decimal its currency does not have, and take the ones it has', () => {
    expect(chargeablePrice({ amount: '499.50', currency: 'JPY' })).toBeUndefined();
    expect(chargeablePrice({ amount: 499.5, currency: 'krw' })).toBeUndefined();
    expect(chargeablePrice({ amount: '499.00', currency: 'JPY' })).toEqual({ amount: '499.00', currency: 'JPY' });
    expect(chargeablePrice({ amount: '12.05', currency: 'KWD' })).toEqual({ amount: '12.05', currency: 'KWD' });
    expect(chargeablePrice({ amount: '0.01', currency: 'INR' })).toEqual({ amount: '0.01', currency: 'INR' });
    // A code Intl does not know has the usual 2.
    expect(chargeablePrice({ amount: '1.99', currency: 'XYZ' })).toEqual({ amount: '1.99', currency: 'XYZ' });
  });
});
