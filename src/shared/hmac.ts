/**
 * HMAC-SHA256 over the exact bytes of a body, signing and verifying side by side. Two providers compute the MAC
 * (stripe-node's crypto providers are the model): node:crypto where the runtime offers it through
 * `process.getBuiltinModule` (Node 20.16+, Bun, Deno), because Node runs each Web Crypto HMAC as a queued job
 * that costs about fifteen times as much; Web Crypto everywhere else (edge workers). Both give the same bytes.
 * Verification decodes the offered signature and compares in constant time; an empty, missing or undecodable
 * signature never verifies (the service sends an EMPTY Signature header for a merchant without a secret).
 */
import { builtinModule } from './builtin-module.js';
import { bytesToBase64, bytesToHex, base64ToBytes, hexToBytes, toBytes } from './bytes.js';

export type SignatureEncoding = 'hex' | 'base64';
export type BinaryLike = string | Uint8Array;

export interface HmacProvider {
  readonly name: string;
  /** HMAC-SHA256 of `body` under `secret` (not empty). */
  mac(secret: BinaryLike, body: Uint8Array): Promise<Uint8Array>;
}

interface NodeCrypto {
  createHmac(algorithm: 'sha256', key: Uint8Array): { update(data: Uint8Array): { digest(): Uint8Array } };
}

export function nodeCryptoProvider(): HmacProvider | undefined {
  const node = builtinModule<NodeCrypto>('node:crypto', 'createHmac');
  if (!node) return undefined;
  return {
    name: 'node:crypto',
    mac: async (secret, body) => node.createHmac('sha256', toBytes(secret)).update(body).digest(),
  };
}

/**
 * Imported keys of text secrets, kept: importing costs more than the HMAC itself, and a process signs with a
 * handful of secrets (the merchant's, the token key, a webhook secret) thousands of times. Bounded all the same.
 */
const importedKeys = new Map<string, Promise<CryptoKey>>();
const MAX_KEPT_KEYS = 64;

function importKey(secret: BinaryLike): Promise<CryptoKey> {
  const load = () =>
    crypto.subtle.importKey('raw', toBytes(secret) as Uint8Array<ArrayBuffer>, { name: 'HMAC', hash: 'SHA-256' }, false, ['sign']);
  if (typeof secret !== 'string') return load();
  let key = importedKeys.get(secret);
  if (!key) {
    if (importedKeys.size >= MAX_KEPT_KEYS) importedKeys.delete(importedKeys.keys().next().value!);
    key = load();
    importedKeys.set(secret, key);
    key.catch(() => importedKeys.delete(secret));
  }
  return key;
}

export const webCryptoProvider: HmacProvider = {
  name: 'Web Crypto',
  mac: async (secret, body) => new Uint8Array(await crypto.subtle.sign('HMAC', await importKey(secret), body as Uint8Array<ArrayBuffer>)),
};

const provider: HmacProvider = nodeCryptoProvider() ?? webCryptoProvider;

function macOf(secret: BinaryLike, body: BinaryLike, using: HmacProvider): Promise<Uint8Array> {
  if (toBytes(secret).length === 0) throw new TypeError('HMAC secret is empty: set the merchant secret (PAYIN_SECRET).');
  return using.mac(secret, toBytes(body));
}

/** The signature of `body` as the service expects it: lowercase hex by default. */
export async function signBody(
  secret: BinaryLike,
  body: BinaryLike,
  encoding: SignatureEncoding = 'hex',
  using: HmacProvider = provider,
): Promise<string> {
  const mac = await macOf(secret, body, using);
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
  using: HmacProvider = provider,
): Promise<boolean> {
  const mac = typeof signature === 'string' ? decodedSignature(signature, encoding) : undefined;
  if (mac?.length !== 32) return false;
  return sameBytes(await macOf(secret, body, using), mac);
}

/**
 * The bytes a signature header offers, as verification reads them (surrounding spaces dropped); undefined when it
 * is not in `encoding`. Hex in either case and base64 with or without padding give the same bytes.
 */
export function decodedSignature(signature: string, encoding: SignatureEncoding): Uint8Array | undefined {
  const offered = signature.trim();
  return encoding === 'hex' ? hexToBytes(offered) : base64ToBytes(offered);
}

/** Equal 32-byte MACs, compared in time that does not depend on where they differ. */
function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  let diff = a.length ^ b.length;
  for (let i = 0; i < a.length && i < b.length; i++) diff |= a[i]! ^ b[i]!;
  return diff === 0;
}
