/**
 * Each secret of the standalone server is known to its own party: PAYIN_SECRET and PAYIN_TOKEN to the payment
 * service, the order-token key and the webhook secret to the shop's backend, the console token to the operators who
 * sign in with it. One value given to settings of two parties was taken: whoever knew one then held the other, and the
 * order-token key signs any price for any order.
 */
import { describe, expect, it } from 'vitest';
import { configProblems, GOOD_ENV } from './support/config-problems.js';

const TOKEN_KEY = 'a-long-order-token-key';
const { PAYIN_RESOLVE_URL: _priced, ...BY_URL_NOT_TOKEN } = GOOD_ENV;
const TOKEN_PRICED = { ...BY_URL_NOT_TOKEN, PAYIN_ORDER_TOKEN_SECRET: TOKEN_KEY };

describe('one secret given to two settings', () => {
  it.each([
    [
      'PAYIN_SECRET',
      { PAYIN_ORDER_TOKEN_SECRET: GOOD_ENV.PAYIN_SECRET! },
      /PAYIN_SECRET and PAYIN_ORDER_TOKEN_SECRET hold the same secret/,
    ],
    ['PAYIN_TOKEN', { PAYIN_TOKEN: TOKEN_KEY }, /PAYIN_TOKEN and PAYIN_ORDER_TOKEN_SECRET hold the same secret/],
    ['PAYIN_CONSOLE_TOKEN', { PAYIN_CONSOLE_TOKEN: TOKEN_KEY }, /PAYIN_ORDER_TOKEN_SECRET and PAYIN_CONSOLE_TOKEN hold the same secret/],
    [
      'the old key of a rotation',
      { PAYIN_ORDER_TOKEN_SECRET: `${TOKEN_KEY}-new ${GOOD_ENV.PAYIN_SECRET}` },
      /PAYIN_SECRET and PAYIN_ORDER_TOKEN_SECRET hold the same secret/,
    ],
  ])('refuses an order-token key that is also %s, naming both', (_what, change, problem) => {
    const message = configProblems({ ...TOKEN_PRICED, ...change });
    expect(message).toMatch(problem);
    expect(message).not.toContain(TOKEN_KEY);
  });

  it("refuses a console token that is also the service secret, and a webhook secret's key that is also the service's", () => {
    expect(configProblems({ ...GOOD_ENV, PAYIN_CONSOLE_TOKEN: GOOD_ENV.PAYIN_SECRET! })).toMatch(
      /PAYIN_SECRET and PAYIN_CONSOLE_TOKEN hold the same secret, yet the payment service should know the one and your operators the other/,
    );
    const key = GOOD_ENV.PAYIN_WEBHOOK_SECRET!.slice('whsec_'.length);
    expect(configProblems({ ...GOOD_ENV, PAYIN_SECRET: key })).toMatch(/PAYIN_SECRET and PAYIN_WEBHOOK_SECRET hold the same secret/);
  });

  it('takes one secret for two settings of one party: the service may issue its token and secret alike', () => {
    expect(configProblems({ ...GOOD_ENV, PAYIN_TOKEN: GOOD_ENV.PAYIN_SECRET! })).toBe('');
  });

  it('takes a secret of its own for each setting, and settings left unset', () => {
    expect(configProblems({ ...TOKEN_PRICED, PAYIN_CONSOLE_TOKEN: 'the-operators-own-token' })).toBe('');
    expect(configProblems(TOKEN_PRICED)).toBe('');
  });
});
