/**
 * PAYIN_SECRET during a rotation. The secret the service gave the shop also derives the browsers' read tokens
 * (http/payment-token.ts), so a proxy restarted with a new secret alone refused every checkout opened before it
 * (their tokens came from the old one) and every callback the service had signed before it switched. For the
 * switch the setting holds the new secret and the previous one, space-separated, as PAYIN_WEBHOOK_SECRET holds
 * its two: the first signs every request to the service and every token issued from then on; either verifies a
 * read token, a callback or an answer. Two at most: each more is one more HMAC for every wrong token, and a
 * rotation has no use for a third.
 */
import { verifySignature, type BinaryLike, type SignatureEncoding } from '../../shared/hmac.js';

/** The secrets in `text`, the one that signs first; none for an empty text. */
export function providerSecrets(text: string): string[] {
  return text.split(/\s+/).filter(Boolean);
}

/** Why `secrets` cannot be PAYIN_SECRET, said with `name` (the variable or the option), or undefined when it can. */
export function providerSecretsProblem(secrets: readonly string[], name: string): string | undefined {
  if (secrets.length > 2) {
    return `${name} holds ${secrets.length} secrets: give one, or during a rotation two, space-separated (the new one first, then the old one)`;
  }
  if (secrets.length === 2 && secrets[0] === secrets[1]) {
    return `${name} holds the same secret twice: during a rotation give the new one first, then the old one`;
  }
  return undefined;
}

/**
 * True when `signature` verifies under any of `secrets`. Each is tried, whichever verifies, so the time taken
 * does not tell which one the signer held.
 */
export async function verifiedUnderAny(
  secrets: readonly string[],
  body: BinaryLike,
  signature: string | null | undefined,
  encoding: SignatureEncoding,
): Promise<boolean> {
  const checks = await Promise.all(secrets.map((secret) => verifySignature(secret, body, signature, encoding)));
  return checks.includes(true);
}
