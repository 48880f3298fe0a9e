/**
 * Who is calling the service's API, decided from the headers and the exact body bytes before anything is parsed:
 * the Bearer token names the merchant (compared in constant time against every merchant, so timing reveals
 * nothing), and the `Signature` header must be the HMAC-SHA256 of the raw body under that merchant's secret,
 * lowercase hex. A missing, empty or wrong value of either is a 401 whose message says what to check.
 * The signature is compared as the text the service computes, as a PHP service's `hash_equals` does: the right MAC
 * in uppercase hex (Java's and .NET's hex writers give it) is refused here as it would be in production.
 */
import { timingSafeEqual } from '../shared/bytes.js';
import { signBody } from '../shared/hmac.js';
import { SandboxError } from './errors.js';
import type { ResolvedOptions } from './options.js';

export type Merchant = ResolvedOptions['merchants'][number];

function tokenOf(request: Request): string | undefined {
  const header = request.headers.get('authorization');
  const match = header ? /^Bearer[ \t]+(\S+)[ \t]*$/i.exec(header) : null;
  return match?.[1];
}

export async function authenticate(request: Request, body: Uint8Array, merchants: readonly Merchant[]): Promise<Merchant> {
  const token = tokenOf(request);
  if (!token) throw new SandboxError(401, 'missing credentials: send "Authorization: Bearer <token>" with the merchant token');
  let found: Merchant | undefined;
  for (const m of merchants) if (timingSafeEqual(m.token, token) && !found) found = m;
  if (!found) throw new SandboxError(401, 'unknown Bearer token: check the merchant token (the demo one is "demo-token")');
  const signature = request.headers.get('signature');
  if (!signature?.trim()) {
    throw new SandboxError(401, 'missing Signature header: send the HMAC-SHA256 of the exact body bytes, lowercase hex');
  }
  const expected = await signBody(found.secret, body);
  const offered = signature.trim();
  if (!timingSafeEqual(expected, offered)) {
    if (timingSafeEqual(expected, offered.toLowerCase())) {
      throw new SandboxError(401, 'Signature is in uppercase hex: the service compares it as lowercase hex, so send it in lowercase');
    }
    throw new SandboxError(
      401,
      'Signature does not match the body: sign the exact bytes you send with the merchant secret (is the body re-serialised after signing?)',
    );
  }
  return found;
}

/** The merchant named in a body must be the one the token belongs to. */
export function checkMerchantId(merchant: Merchant, merchantId: string): void {
  if (merchantId !== merchant.id) {
    throw new SandboxError(401, 'merchantId does not belong to the Bearer token: send the merchantId issued with this token');
  }
}

/** What signs this merchant's answers and callbacks: empty when the service holds no secret for it. */
export function answerSecretOf(merchant: Merchant): string {
  return merchant.signAnswers ? merchant.secret : '';
}
