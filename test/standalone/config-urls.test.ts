/**
 * The standalone server's configuration as an operator types it: every address that is not an http(s) URL is
 * named at once, in the one list of problems the server prints before it refuses to start (exit 2), never one at
 * a time from deeper down after the store is open. The help for a missing PAYIN_CALLBACK_URL names the real path.
 */
import { describe, expect, it } from 'vitest';
import { readStandaloneConfig } from '../../src/standalone/index.js';
import { configProblems as problemsOf, GOOD_ENV as GOOD } from './support/config-problems.js';

describe('the standalone configuration', () => {
  it('takes a good one', () => {
    expect(problemsOf(GOOD)).toBe('');
  });

  it('names every address that is not an http(s) URL, all in one list', () => {
    const message = problemsOf({
      ...GOOD,
      PAYIN_BASE_URL: 'pay.example',
      PAYIN_CALLBACK_URL: 'ftp://shop.example/payin/callback',
      PAYIN_WEBHOOK_URL: 'http://',
      PAYIN_RESOLVE_URL: 'https://shop example/price',
    });
    for (const name of ['PAYIN_BASE_URL', 'PAYIN_CALLBACK_URL', 'PAYIN_WEBHOOK_URL', 'PAYIN_RESOLVE_URL']) {
      expect(message).toContain(`${name} must be an http(s) URL`);
    }
  });

  it('says which path a missing PAYIN_CALLBACK_URL must reach, with the base path in use', () => {
    const { PAYIN_CALLBACK_URL: _, ...rest } = GOOD;
    expect(problemsOf(rest)).toContain('/payin/callback');
    expect(problemsOf({ ...rest, PAYIN_BASE_PATH: '/pay' })).toContain('/pay/callback');
    expect(problemsOf(rest)).not.toContain('{basePath}');
  });

  it('names each PAYIN_ALLOWED_ORIGINS entry that is not an origin, in the same list', () => {
    const message = problemsOf({ ...GOOD, PAYIN_ALLOWED_ORIGINS: 'https://shop.example/ shop2.example https://shop3.example/cart' });
    expect(message).toMatch(/PAYIN_ALLOWED_ORIGINS: "shop2\.example" is not an origin/);
    expect(message).toMatch(/PAYIN_ALLOWED_ORIGINS: "https:\/\/shop3\.example\/cart" is not an origin/);
    expect(message).not.toMatch(/"https:\/\/shop\.example\/"/);
    expect(readStandaloneConfig({ ...GOOD, PAYIN_ALLOWED_ORIGINS: 'https://shop.example/' }).allowedOrigins).toEqual([
      'https://shop.example',
    ]);
  });

  it('refuses an order token key short enough to guess: any token a page shows lets a shopper test guesses offline', () => {
    const { PAYIN_RESOLVE_URL: _, ...rest } = GOOD;
    expect(problemsOf({ ...rest, PAYIN_ORDER_TOKEN_SECRET: 'secret' })).toMatch(/PAYIN_ORDER_TOKEN_SECRET must be at least 16 characters/);
    expect(problemsOf({ ...rest, PAYIN_ORDER_TOKEN_SECRET: 'secret' })).not.toContain('"secret"');
    expect(problemsOf({ ...rest, PAYIN_ORDER_TOKEN_SECRET: 'a-random-key-of-24-chars' })).toBe('');
  });
});
