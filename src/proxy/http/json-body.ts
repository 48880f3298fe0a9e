/**
 * The browser's request bodies: JSON only (415 otherwise, which also keeps cross-site forms out, since a JSON
 * content type cannot be sent cross-origin without a preflight), capped in size (413), and limited to the fields
 * the contract names. An unknown field is refused rather than ignored, so that a page that sends `amount` learns
 * at once that the shop's server decides the amount.
 */
import { BodyConsumedError, bodyInHand, BodyTooLargeError, isJsonRequest, parseJsonBytes, readStreamedBody } from '../../shared/body.js';
import type { ProxyRequest } from './exchange.js';
import { ProxyError } from './errors.js';
import type { MaybePromise } from '../maybe-async.js';

/** The body's fields, at once when the adapter has the body in hand (see maybe-async.ts), else once it is read. */
export function readJsonFields<K extends string>(
  request: ProxyRequest,
  limit: number,
  fields: readonly K[],
): MaybePromise<Partial<Record<K, unknown>>> {
  if (!isJsonRequest(request)) {
    throw new ProxyError('unsupported_media_type', 'send the body as JSON with Content-Type: application/json');
  }
  let inHand: Uint8Array | undefined;
  try {
    inHand = bodyInHand(request, limit);
  } catch (error) {
    throw bodyError(error, limit);
  }
  if (inHand) return jsonFields(inHand, fields);
  return readStreamedBody(request, limit).then(
    (bytes) => jsonFields(bytes, fields),
    (error) => {
      throw bodyError(error, limit);
    },
  );
}

function bodyError(error: unknown, limit: number): ProxyError {
  if (error instanceof BodyTooLargeError) return new ProxyError('payload_too_large', `the body is larger than ${limit} bytes`);
  if (error instanceof BodyConsumedError) return new ProxyError('internal', error.message, { cause: error });
  return new ProxyError('bad_request', 'the request body could not be read', { cause: error });
}

function jsonFields<K extends string>(bytes: Uint8Array, fields: readonly K[]): Partial<Record<K, unknown>> {
  const parsed = parseJsonBytes(bytes);
  if (!parsed.ok) throw new ProxyError('bad_request', 'the body is not valid UTF-8 JSON');
  const value = parsed.value;
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new ProxyError('bad_request', 'the body must be a JSON object');
  }
  for (const key of Object.keys(value)) {
    if (!(fields as readonly string[]).includes(key)) {
      throw new ProxyError(
        'unknown_field',
        `unknown field ${JSON.stringify(key.slice(0, 40))}: only ${fields.join(', ')} may be sent; amounts and merchant settings come from the shop's server`,
      );
    }
  }
  return value as Partial<Record<K, unknown>>;
}

/** A required, non-empty string field of at most `max` characters. */
export function requireText(value: unknown, name: string, max = 128): string {
  if (typeof value !== 'string' || value.trim() === '') throw new ProxyError('bad_request', `${name} is required and must be a string`);
  if (value.length > max) throw new ProxyError('bad_request', `${name} is longer than ${max} characters`);
  return value;
}
