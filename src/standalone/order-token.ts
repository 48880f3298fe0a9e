/**
 * Signed order tokens, for shops that price on their own page instead of answering a pricing endpoint: the page
 * renders `order-token` on the element, a compact `base64url(JSON) + "." + base64url(HMAC-SHA256)` of
 * `{orderId, amount, currency, exp}` under a key the shop shares with the proxy. The proxy believes the price only
 * when the MAC verifies (in constant time), the token is unexpired, it names the order being paid and its price can
 * be charged.
 *
 * The key is rotated as PAYIN_SECRET is (rotated-secrets.ts): `secret` may hold the new key and the old one,
 * space-separated. The new one signs; either verifies, so a page rendered before the shop's backend switched keys
 * still pays until its token expires, and then the old key can go.
 */
import { rotatedSecrets, underAny } from '../proxy/infrastructure/rotated-secrets.js';
import { bytesToBase64, timingSafeEqual } from '../shared/bytes.js';
import { signBody } from '../shared/hmac.js';
import { chargeablePrice, unchargeableNote } from '../shared/money.js';

export interface OrderTokenClaims {
  orderId: string;
  /** "499.00" */
  amount: string;
  currency: string;
  /** Expiry, in seconds since the epoch. */
  exp: number;
}

/**
 * An exp from here on (the year 5138 in seconds; early 1973 in milliseconds) is a time in milliseconds, from
 * Date.now() or Java's currentTimeMillis(): read as seconds it is a token that never expires, a quote meant for
 * 15 minutes paying its price for good. Refused with the likely fix, rather than believed.
 */
const MILLISECONDS_FROM = 1e11;

const encoder = new TextEncoder();
const base64url = (bytes: Uint8Array) => bytesToBase64(bytes).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');

async function mac(secret: string, payload: string): Promise<string> {
  const base64 = await signBody(secret, payload, 'base64');
  return base64.replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

/**
 * The token for `claims`; what the shop's page renders (docs/standalone.md shows it in PHP, Python and Ruby too).
 * Signed with the first key of `secret`, so that a backend reading the server's own setting signs with the new one.
 */
export async function signOrderToken(secret: string, claims: OrderTokenClaims): Promise<string> {
  const payload = base64url(encoder.encode(JSON.stringify(claims)));
  return `${payload}.${await mac(rotatedSecrets(secret)[0] ?? '', payload)}`;
}

/**
 * Why the token cannot price `orderId` now, or its claims when it can, its price as chargeablePrice writes it.
 * `secret` is the setting's value: one key, or the new and the old one, space-separated, either of which verifies.
 */
export async function verifyOrderToken(
  secret: string,
  token: string,
  orderId: string,
  nowMs: number,
): Promise<{ ok: true; claims: OrderTokenClaims } | { ok: false; reason: string }> {
  const [payload, signature, extra] = token.split('.');
  if (!payload || !signature || extra !== undefined) return { ok: false, reason: 'malformed' };
  const signed = await underAny(rotatedSecrets(secret), async (key) => timingSafeEqual(await mac(key, payload), signature));
  if (!signed) return { ok: false, reason: 'signature does not verify' };
  let claims: Partial<OrderTokenClaims>;
  try {
    claims = JSON.parse(
      new TextDecoder().decode(Uint8Array.from(atob(payload.replace(/-/g, '+').replace(/_/g, '/')), (c) => c.charCodeAt(0))),
    );
  } catch {
    return { ok: false, reason: 'malformed' };
  }
  if (typeof claims.exp !== 'number') return { ok: false, reason: 'malformed' };
  if (claims.exp >= MILLISECONDS_FROM) {
    return {
      ok: false,
      reason: `its exp ${claims.exp} is in milliseconds? It is seconds since the epoch (Date.now() / 1000, time.time(), time()), or the token never expires`,
    };
  }
  if (claims.exp * 1000 <= nowMs) {
    // Said with its age: "expired" alone, for a token the page rendered a second ago, hid a shop clock running behind.
    const ago = Math.round(nowMs / 1000 - claims.exp);
    return {
      ok: false,
      reason: `expired ${ago} s ago (a token rendered just now is expired on arrival when the shop's clock is behind this server's)`,
    };
  }
  if (claims.orderId !== orderId) return { ok: false, reason: 'for another order' };
  if (typeof claims.amount !== 'string' || typeof claims.currency !== 'string') return { ok: false, reason: 'malformed' };
  // Signed by the shop, yet no price a payment can be made for ("1,499.00" from PHP's number_format): said here, by
  // the order and the price, rather than as the proxy's internal error it became further on.
  const price = chargeablePrice(claims);
  if (!price) {
    return {
      ok: false,
      reason: `its price cannot be charged: ${unchargeableNote(claims)}`,
    };
  }
  // The price as a payment is made for it ("499" is "499.00", "inr" is "INR").
  return { ok: true, claims: { ...(claims as OrderTokenClaims), ...price } };
}
