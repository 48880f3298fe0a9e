/**
 * What a shopper holding a good order token can make of it: nothing the server believes. The MAC is over the exact
 * text of the payload, so another encoding of the same claims, claims added or repeated, a cut token, a signature of
 * another shape or a token in another format (a JWT saying "alg": "none") are refused as a changed price is.
 */
import { describe, expect, it } from 'vitest';
import { signOrderToken, verifyOrderToken } from '../../src/standalone/order-token.js';

const KEY = 'order-token-key-of-the-shop';
const NOW_MS = Date.UTC(2026, 10, 28);
const CLAIMS = { orderId: 'A-1', amount: '499.00', currency: 'INR', exp: NOW_MS / 1000 + 900 };
const base64url = (text: string) => Buffer.from(text).toString('base64url');

async function forgeriesOf(token: string): Promise<[string, string][]> {
  const [payload, signature] = token.split('.') as [string, string];
  const json = Buffer.from(payload, 'base64url').toString();
  const standard = Buffer.from(signature, 'base64url').toString('base64');
  return [
    [
      'the same claims in another order',
      `${base64url(JSON.stringify({ exp: CLAIMS.exp, currency: 'INR', amount: '499.00', orderId: 'A-1' }))}.${signature}`,
    ],
    ['the same claims with spaces', `${base64url(JSON.stringify(CLAIMS, null, 1))}.${signature}`],
    ['the payload with base64 padding', `${payload}==.${signature}`],
    ['the signature in standard base64 with padding', `${payload}.${standard}`],
    ['an order id repeated, the last naming another order', `${base64url(`${json.slice(0, -1)},"orderId":"B-2"}`)}.${signature}`],
    ['a lower amount appended', `${base64url(`${json.slice(0, -1)},"amount":"1.00"}`)}.${signature}`],
    ['the payload cut short', `${payload.slice(0, -4)}.${signature}`],
    ['the signature cut short', `${payload}.${signature.slice(0, 22)}`],
    ['an empty signature', `${payload}.`],
    ['a third part', `${token}.${signature}`],
    ['a JWT saying alg none', `${base64url('{"alg":"none","typ":"JWT"}')}.${payload}.`],
    ['a JWT saying alg none, two parts', `${base64url('{"alg":"none"}')}.${payload}`],
  ];
}

describe('an order token changed by whoever holds it', () => {
  it('is good as the shop signed it', async () => {
    expect(await verifyOrderToken(KEY, await signOrderToken(KEY, CLAIMS), 'A-1', NOW_MS)).toMatchObject({ ok: true });
  });

  it('is refused in every other form', async () => {
    const token = await signOrderToken(KEY, CLAIMS);
    for (const [what, forged] of await forgeriesOf(token)) {
      expect((await verifyOrderToken(KEY, forged, 'A-1', NOW_MS)).ok, what).toBe(false);
      expect((await verifyOrderToken(KEY, forged, 'B-2', NOW_MS)).ok, what).toBe(false);
    }
  });

  it('is refused for another order, and once expired, however close the clock', async () => {
    const token = await signOrderToken(KEY, CLAIMS);
    expect(await verifyOrderToken(KEY, token, 'A-10', NOW_MS)).toEqual({ ok: false, reason: 'for another order' });
    expect((await verifyOrderToken(KEY, token, 'A-1', CLAIMS.exp * 1000)).ok).toBe(false);
    expect((await verifyOrderToken(KEY, token, 'A-1', CLAIMS.exp * 1000 - 1)).ok).toBe(true);
  });
});
