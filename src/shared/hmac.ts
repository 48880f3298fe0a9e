/**
 * HMAC-SHA256 over the exact bytes of a body, signing and verifying side by side. Web Crypto only, so the same
 * code runs in Node 20+, Bun, Deno and edge workers. Verification decodes the offered signature and lets
 * `crypto.subtle.verify` compare in constant time; an empty, missing or undecodable signature never verifies
 * (the service sends an EMPTY Signature header for a merchant without a secret).
 */
import { bytesToBase64, bytesToHex, base64ToBytes, hexToBytes, toBytes } from './bytes.js';

export type SignatureEncoding = 'hex' | 'base64';
export type BinaryLike = string | Uint8Array;

/**
 * Imported keys of text secrets, kept: importing costs more than the HMAC itself, and a process signs with a
 * handful of secrets (the merchant's, the token key, a webhook secret) thousands of times. Bounded all the same.
 */
const importedKeys = new Map<string, Promise<CryptoKey>>();
const MAX_KEPT_KEYS = 64;

function importKey(secret: BinaryLike, usage: 'sign' | 'verify'): Promise<CryptoKey> {
  const raw = toBytes(secret);
  if (raw.length === 0) throw new TypeError('HMAC secret is empty: set the merchant secret (PAYIN_SECRET).');
  const load = () => crypto.subtle.importKey('raw', raw as Uint8Array<ArrayBuffer>, { name: 'HMAC', hash: 'SHA-256' }, false, [usage]);
  if (typeof secret !== 'string') return load();
  const id = `${usage}:${secret}`;
  let key = importedKeys.get(id);
  if (!key) {
    if (importedKeys.size >= MAX_KEPT_KEYS) importedKeys.delete(importedKeys.keys().next().value!);
    key = load();
    importedKeys.set(id, key);
    key.catch(() => importedKeys.delete(id));
  }
  return key;
}

/** The signature of `body` as the service expects it: lowercase hex by default. */
export async function signBody(secret: BinaryLike, body: BinaryLike, encoding: SignatureEncoding = 'hex'): Promise<string> {
  const key = await importKey(secret, 'sign');
  const mac = new Uint8Array(await crypto.subtle.sign('HMAC', key, toBytes(body) as Uint8Array<ArrayBuffer>));
  return encoding === 'hex' ? bytesToHex(mac) : bytesToBase64(mac);
}

/**
 * True only when `signature` is the HMAC of exactly these bytes. Compare before parsing anything: a body that
 * was re-serialised (by `express.json()`, say) no longer verifies.
 */
export async function verifySignature(
  secret: BinaryLike,
  body: BinaryLike,
  signature: string | null | undefined,
  encoding: SignatureEncoding = 'hex',
): Promise<boolean> {
  if (typeof signature !== 'string') return false;
  const offered = signature.trim();
  if (offered === '') return false;
  const mac = encoding === 'hex' ? hexToBytes(offered) : base64ToBytes(offered);
  if (mac?.length !== 32) return false;
  const key = await importKey(secret, 'verify');
  return crypto.subtle.verify('HMAC', key, mac as Uint8Array<ArrayBuffer>, toBytes(body) as Uint8Array<ArrayBuffer>);
}
