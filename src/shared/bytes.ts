/**
 * Byte helpers that every runtime has: UTF-8 through TextEncoder, hex and base64 by hand (Buffer is Node only,
 * and `atob` accepts sloppy input we would rather refuse), and a constant-time comparison for tokens.
 */

const encoder = new TextEncoder();

export function toBytes(value: string | Uint8Array): Uint8Array {
  return typeof value === 'string' ? encoder.encode(value) : value;
}

export function bytesToHex(bytes: Uint8Array): string {
  let out = '';
  for (const b of bytes) out += b.toString(16).padStart(2, '0');
  return out;
}

/** Undefined when the text is not hex of whole bytes (either case is accepted). */
export function hexToBytes(hex: string): Uint8Array | undefined {
  if (hex.length % 2 !== 0 || !/^[0-9a-fA-F]*$/.test(hex)) return undefined;
  const out = new Uint8Array(hex.length / 2);
  for (let i = 0; i < out.length; i++) out[i] = parseInt(hex.slice(i * 2, i * 2 + 2), 16);
  return out;
}

const B64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';

export function bytesToBase64(bytes: Uint8Array): string {
  let out = '';
  for (let i = 0; i < bytes.length; i += 3) {
    const n = (bytes[i]! << 16) | ((bytes[i + 1] ?? 0) << 8) | (bytes[i + 2] ?? 0);
    out += B64[(n >> 18) & 63]! + B64[(n >> 12) & 63]!;
    out += i + 1 < bytes.length ? B64[(n >> 6) & 63]! : '=';
    out += i + 2 < bytes.length ? B64[n & 63]! : '=';
  }
  return out;
}

/** Standard base64 with padding; also accepts the URL-safe alphabet. Undefined on anything else. */
export function base64ToBytes(text: string): Uint8Array | undefined {
  const s = text.replace(/-/g, '+').replace(/_/g, '/');
  const padded = s + '='.repeat((4 - (s.length % 4)) % 4);
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(padded) || padded.length % 4 !== 0) return undefined;
  const pad = padded.endsWith('==') ? 2 : padded.endsWith('=') ? 1 : 0;
  const out = new Uint8Array((padded.length / 4) * 3 - pad);
  let o = 0;
  for (let i = 0; i < padded.length; i += 4) {
    const n =
      (B64.indexOf(padded[i]!) << 18) |
      (B64.indexOf(padded[i + 1]!) << 12) |
      ((B64.indexOf(padded[i + 2]!) & 63) << 6) |
      (B64.indexOf(padded[i + 3]!) & 63);
    if (o < out.length) out[o++] = (n >> 16) & 255;
    if (o < out.length) out[o++] = (n >> 8) & 255;
    if (o < out.length) out[o++] = n & 255;
  }
  return out;
}

/**
 * Compares two strings in time that depends only on their lengths, for tokens and other secrets. Code units are
 * compared as they are: encoding both to UTF-8 first cost more than the comparison.
 */
export function timingSafeEqual(a: string, b: string): boolean {
  // Strings of unequal length are unequal, but `a` is still walked through, so that no early return tells where
  // (or whether) a guess of the right length went wrong.
  const other = a.length === b.length ? b : a;
  let diff = a.length ^ b.length;
  for (let i = 0; i < a.length; i++) diff |= a.charCodeAt(i) ^ other.charCodeAt(i);
  return diff === 0;
}

/** A random token of `bytes` bytes (default 16 = 128 bits), URL-safe base64 without padding. */
export function randomToken(bytes = 24): string {
  const raw = crypto.getRandomValues(new Uint8Array(bytes));
  return bytesToBase64(raw).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

/** The chunks of a body, one after another, in one array (the one chunk itself when there is only one). */
export function concatBytes(chunks: readonly Uint8Array[]): Uint8Array<ArrayBuffer> {
  if (chunks.length === 1 && chunks[0]!.buffer instanceof ArrayBuffer) return chunks[0] as Uint8Array<ArrayBuffer>;
  let size = 0;
  for (const chunk of chunks) size += chunk.byteLength;
  const out = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    out.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return out;
}
