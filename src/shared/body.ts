/**
 * Reads a request body up to a byte limit, like hono's body-limit middleware: Content-Length is checked first,
 * then the stream is counted as it arrives, so a lying or absent length cannot push past the cap. The bytes are
 * returned untouched, because signatures are computed over exactly these bytes.
 */

import { concatBytes } from './bytes.js';

export class BodyTooLargeError extends Error {
  readonly status = 413;
  constructor(readonly limit: number) {
    super(`request body is larger than ${limit} bytes`);
    this.name = 'BodyTooLargeError';
  }
}

/**
 * The body was read before the handler got the request: by a body parser mounted in front (express.json(),
 * a Fastify content-type parser), or by code that called request.json(). Signatures need the raw bytes.
 */
export class BodyConsumedError extends Error {
  constructor() {
    super(
      'the request body was already read before the payin handler got it: mount the proxy before any body parser (express.json(), express.text(), a Fastify content-type parser) or hand it the raw, unread request',
    );
    this.name = 'BodyConsumedError';
  }
}

/** Set by the node adapter on a request whose Node stream a body parser had already drained. */
export const BODY_CONSUMED = Symbol.for('payin-checkout.bodyConsumed');

/** A method of the node adapter's light request: the whole body, read before the handler ran, as bytes. */
export const BYTES_IN_HAND = Symbol.for('payin-checkout.bytesInHand');

interface BodySource {
  readonly bodyUsed: boolean;
  readonly headers: { get(name: string): string | null };
  readonly body: ReadableStream<Uint8Array> | null;
  [BODY_CONSUMED]?: boolean;
  [BYTES_IN_HAND]?: () => Uint8Array<ArrayBuffer> | undefined;
}

/**
 * The body when it is there without waiting: the bytes the node adapter read before the handler ran (taken, so
 * once). Undefined when it has to be read from the stream (readBody does). Throws as readBody does.
 */
export function bodyInHand(request: BodySource, limit: number): Uint8Array<ArrayBuffer> | undefined {
  if (request.bodyUsed || request[BODY_CONSUMED]) throw new BodyConsumedError();
  const declared = request.headers.get('content-length');
  if (declared !== null && Number(declared) > limit) throw new BodyTooLargeError(limit);
  const inHand = request[BYTES_IN_HAND]?.();
  if (inHand && inHand.byteLength > limit) throw new BodyTooLargeError(limit);
  return inHand;
}

/** The body of a request (or of an answer the server fetched), up to `limit` bytes. */
export async function readBody(request: BodySource, limit: number): Promise<Uint8Array<ArrayBuffer>> {
  return bodyInHand(request, limit) ?? readStreamedBody(request, limit);
}

/** The rest of readBody, for a caller that asked bodyInHand first and got undefined: the body from its stream. */
export async function readStreamedBody(request: BodySource, limit: number): Promise<Uint8Array<ArrayBuffer>> {
  if (!request.body) return new Uint8Array(0);
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      await reader.cancel().catch(() => {});
      throw new BodyTooLargeError(limit);
    }
    chunks.push(value);
  }
  return concatBytes(chunks);
}

/** True when the request says its body is JSON (any charset). */
export function isJsonRequest(request: { readonly headers: { get(name: string): string | null } }): boolean {
  const type = request.headers.get('content-type') ?? '';
  return /^application\/(?:[\w.+-]+\+)?json\s*(?:;|$)/i.test(type.trim());
}

const decoder = new TextDecoder('utf-8', { fatal: true });

/** Parses UTF-8 JSON; undefined when the bytes are not valid UTF-8 JSON. */
export function parseJsonBytes(bytes: Uint8Array): { ok: true; value: unknown } | { ok: false } {
  // Valid JSON nested deeper than the cap has more than twice as many bytes as the cap (each level opens and
  // closes); a shorter text nested that deep is not valid JSON, and the parse refuses it anyway.
  if (nestedTooDeep(bytes)) return { ok: false };
  try {
    return { ok: true, value: JSON.parse(decoder.decode(bytes)) };
  } catch {
    return { ok: false };
  }
}

/**
 * No message of ours or of the service nests deeper than a few levels; a body nested thousands deep is an
 * attack on whatever walks it recursively later (a schema check, a clone), so it is refused before parsing.
 */
export const MAX_JSON_DEPTH = 64;

/** True when JSON text nests arrays and objects deeper than MAX_JSON_DEPTH (cheap for short texts). */
export function nestedTooDeep(bytes: Uint8Array): boolean {
  return bytes.length > 2 * MAX_JSON_DEPTH && nestingDepth(bytes) > MAX_JSON_DEPTH;
}

/** The deepest nesting of arrays and objects in JSON text, not counting brackets inside strings. */
function nestingDepth(bytes: Uint8Array): number {
  let depth = 0;
  let deepest = 0;
  let inString = false;
  for (let i = 0; i < bytes.length; i++) {
    const c = bytes[i];
    if (inString) {
      if (c === 0x5c)
        i++; // backslash: skip the escaped character
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x5b || c === 0x7b) {
      depth++;
      if (depth > deepest) deepest = depth;
      if (deepest > MAX_JSON_DEPTH) return deepest;
    } else if (c === 0x5d || c === 0x7d) depth--;
  }
  return deepest;
}
