/**
 * The payment tokens: an HMAC of the payment id under a key derived from the shop's secret, the same on any
 * instance and after a restart, and kept for the payments asked about lately so that a poll costs no HMAC.
 */
import { createRequire } from 'node:module';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { PaymentTokens } from '../../../src/proxy/http/payment-token.js';
import { signBody } from '../../../src/shared/hmac.js';

afterEach(() => vi.restoreAllMocks());

describe('payment tokens', () => {
  it('are an HMAC of the id under a key derived from the secret: the same on another instance, different for another secret', async () => {
    const one = await new PaymentTokens(['shop-secret']).issue('6b0403ef2bf20');
    expect(one).toBe(await signBody(await signBody('shop-secret', 'payin-checkout payment token v1'), '6b0403ef2bf20'));
    expect(await new PaymentTokens(['shop-secret']).issue('6b0403ef2bf20')).toBe(one);
    expect(await new PaymentTokens(['other-secret']).issue('6b0403ef2bf20')).not.toBe(one);
    expect(one).not.toBe(await signBody('shop-secret', '6b0403ef2bf20'));
  });

  it('verify the right token only, and a poll with the kept token costs no HMAC', async () => {
    const tokens = new PaymentTokens(['shop-secret']);
    const token = await tokens.issue('p1');
    // On Node the HMAC is node:crypto's (shared/hmac.ts); the module object is the one the provider calls.
    const hmacs = vi.spyOn(createRequire(import.meta.url)('node:crypto') as typeof import('node:crypto'), 'createHmac');
    for (let i = 0; i < 5; i++) expect(await tokens.verify('p1', token)).toBe(true);
    expect(hmacs).not.toHaveBeenCalled();
    expect(await tokens.verify('p1', '')).toBe(false);
    expect(await tokens.verify('p2', token)).toBe(false); // another payment
  });

  it('do the same work for a wrong token of a known payment as for an unknown payment, so timing tells no ids', async () => {
    const tokens = new PaymentTokens(['shop-secret']);
    const token = await tokens.issue('known');
    const wrong = `${token.slice(0, -1)}${token.endsWith('0') ? '1' : '0'}`;
    const hmacs = vi.spyOn(createRequire(import.meta.url)('node:crypto') as typeof import('node:crypto'), 'createHmac');
    expect(await tokens.verify('known', wrong)).toBe(false);
    const forKnown = hmacs.mock.calls.length;
    hmacs.mockClear();
    expect(await tokens.verify('unknown', wrong)).toBe(false);
    const forUnknown = hmacs.mock.calls.length;
    expect([forKnown, forUnknown]).toEqual([1, 1]);
    // A probe keeps nothing: the next probe of the same unknown id costs the same again.
    hmacs.mockClear();
    expect(await tokens.verify('unknown', wrong)).toBe(false);
    expect(hmacs).toHaveBeenCalledTimes(1);
  });

  it('during a rotation are issued under the new secret and verify under the new or the old one, never a third', async () => {
    const before = await new PaymentTokens(['old-secret']).issue('p1');
    const tokens = new PaymentTokens(['new-secret', 'old-secret']);
    expect(await tokens.verify('p1', before)).toBe(true);
    // The old token, now kept for the poll, is not what a create hands out again: that is the new secret's.
    const issued = await tokens.issue('p1');
    expect(issued).toBe(await new PaymentTokens(['new-secret']).issue('p1'));
    expect(issued).not.toBe(before);
    expect(await tokens.verify('p1', issued)).toBe(true);
    expect(await tokens.verify('p1', before)).toBe(true);
    expect(await tokens.verify('p1', await new PaymentTokens(['third-secret']).issue('p1'))).toBe(false);
  });

  it('during a rotation cost a wrong token one HMAC per secret, whether the payment is known or not', async () => {
    const tokens = new PaymentTokens(['new-secret', 'old-secret']);
    const token = await tokens.issue('known');
    await tokens.verify('unknown', ''); // both keys derived before counting
    const wrong = `${token.slice(0, -1)}${token.endsWith('0') ? '1' : '0'}`;
    const hmacs = vi.spyOn(createRequire(import.meta.url)('node:crypto') as typeof import('node:crypto'), 'createHmac');
    expect(await tokens.verify('known', wrong)).toBe(false);
    expect(await tokens.verify('unknown', wrong)).toBe(false);
    expect(hmacs).toHaveBeenCalledTimes(4);
  });
});
