/**
 * A secret during its rotation: the setting holds the new value and the previous one, space-separated; the first
 * signs, either verifies. PAYIN_SECRET is rotated so (it also derives the browsers' read tokens, http/payment-token.ts:
 * a proxy restarted with a new secret alone refused every checkout opened before it and every callback the service
 * had signed before it switched), and so are PAYIN_ORDER_TOKEN_SECRET and PAYIN_WEBHOOK_SECRET in the standalone
 * server. Two at most: each more is one more HMAC for every wrong token, and a rotation has no use for a third.
 */
import { verifySignature, type BinaryLike, type SignatureEncoding } from '../../shared/hmac.js';

/** The secrets in `text`, the one that signs first; none for an empty text. */
export function rotatedSecrets(text: string): string[] {
  return text.split(/\s+/).filter(Boolean);
}

/** Why `secrets` cannot be the setting `name` (the variable or the option), or undefined when they can. */
export function rotationProblem(secrets: readonly string[], name: string): string | undefined {
  if (secrets.length > 2) {
    return `${name} holds ${secrets.length} secrets: give one, or during a rotation two, space-separated (the new one first, then the old one)`;
  }
  if (secrets.length === 2 && secrets[0] === secrets[1]) {
    return `${name} holds the same secret twice: during a rotation give the new one first, then the old one`;
  }
  return undefined;
}

/**
 * True when `verifies` holds under any of `secrets`. Each is tried, whichever verifies, so the time taken does not
 * tell which one the signer held.
 */
export async function underAny(secrets: readonly string[], verifies: (secret: string) => Promise<boolean>): Promise<boolean> {
  return (await Promise.all(secrets.map(verifies))).includes(true);
}

/** True when `signature` (of the service's kind, in `encoding`) verifies under any of `secrets`. */
export function verifiedUnderAny(
  secrets: readonly string[],
  body: BinaryLike,
  signature: string | null | undefined,
  encoding: SignatureEncoding,
): Promise<boolean> {
  return underAny(secrets, (secret) => verifySignature(secret, body, signature, encoding));
}
