/**
 * The closed list of error codes the proxy answers the browser with, in `{error: {code, message}}`. The widget
 * decides from the code alone whether a retry can help; the message is for developers, never shown raw.
 */

export const ERROR_CODES = {
  bad_request: 400,
  unknown_field: 400,
  not_found: 404,
  method_not_allowed: 405,
  order_paid: 409,
  payload_too_large: 413,
  unsupported_media_type: 415,
  rate_limited: 429,
  internal: 500,
  upstream_error: 502,
  upstream_timeout: 504,
  /** The proxy's own store (its database) failed or did not answer: nothing was decided, the same request may succeed later. */
  unavailable: 503,
} as const;

export type ErrorCode = keyof typeof ERROR_CODES;

export interface ApiErrorBody {
  error: { code: ErrorCode; message: string };
}

/** Codes worth retrying: the same request may succeed later without any change. */
export function isRetryable(code: string): boolean {
  return (
    code === 'rate_limited' || code === 'upstream_error' || code === 'upstream_timeout' || code === 'internal' || code === 'unavailable'
  );
}

/**
 * Whether `code` is one of ERROR_CODES, checked without the table (its statuses are the proxy's business): the
 * browser's check costs the script-tag build only the names, which it already carries. A test holds the two lists together.
 */
export function isErrorCode(code: unknown): code is ErrorCode {
  return (
    typeof code === 'string' &&
    /^(?:bad_request|unknown_field|not_found|method_not_allowed|order_paid|payload_too_large|unsupported_media_type|rate_limited|internal|upstream_error|upstream_timeout|unavailable)$/.test(
      code,
    )
  );
}
