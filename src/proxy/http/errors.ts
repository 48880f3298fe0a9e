/**
 * The proxy's one error class and the one place where an error becomes an answer. Routes throw ProxyError with
 * a code from the closed list in src/shared/error-codes.ts; anything else is a bug or an outage and is answered
 * as a bare 500 `internal`, logged on the server, never with its stack or an upstream's words in the body; a
 * failure of the store (infrastructure/store-failure.ts) as 503 `unavailable`, retryable, naming the store in the log.
 */
import type { Answer } from './exchange.js';
import { ERROR_CODES, type ApiErrorBody, type ErrorCode } from '../../shared/error-codes.js';
import type { ProxyLogger } from '../logger.js';
import { UpstreamError } from '../infrastructure/upstream-client.js';
import { StoreFailure } from '../infrastructure/store-failure.js';
import type { RequestSubject } from './request-subject.js';

export interface ProxyErrorOptions {
  /** Seconds, for 429. */
  retryAfter?: number;
  /** Methods the route accepts, for 405. */
  allow?: readonly string[];
  /** The cause, for the server log only. */
  cause?: unknown;
  /**
   * A status other than the code's own. Only the callback route uses it: 401 for a bad signature, which only the
   * payment service ever sees, so the browser's closed list of codes stays as it is.
   */
  status?: number;
}

export class ProxyError extends Error {
  readonly status: number;

  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly options: ProxyErrorOptions = {},
  ) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'ProxyError';
    this.status = options.status ?? ERROR_CODES[code];
  }
}

const JSON_HEADERS = { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store' };

export function jsonAnswer(status: number, body: unknown, headers: Record<string, string> = {}): Answer {
  return jsonTextAnswer(status, JSON.stringify(body), headers);
}

/** The same for a body already written as JSON text. */
export function jsonTextAnswer(status: number, json: string, headers?: Record<string, string>): Answer {
  // Copied by assignment, not spread: V8 gives a spread object a shape that the next header added (the router's
  // Vary) turns into a slow dictionary, which cost 0.9 us an answer (Object.assign: about 0.1 us).
  return { status, headers: Object.assign({}, JSON_HEADERS, headers), body: json };
}

/**
 * Turns anything thrown by a route into the answer the browser (or the service) gets. `about` is the payment and
 * order the request was found to be about (request-subject.ts), named in the log line of a 5xx so that an operator
 * can tell which payment is stuck; a store that failed has its own line, about the store (one per outage, not one
 * per open checkout).
 */
export function errorAnswer(error: unknown, logger: ProxyLogger, about: RequestSubject = {}): Answer {
  if (error instanceof UpstreamError) return errorAnswer(fromUpstream(error), logger, about);
  if (error instanceof StoreFailure) return storeUnavailable(error, logger);
  if (!(error instanceof ProxyError)) {
    logger.error('unexpected error in the payin proxy', { ...about, error: describe(error) });
    return errorAnswer(new ProxyError('internal', 'internal error'), logger, about);
  }
  if (error.status >= 500) logger.warn(error.message, { ...about, code: error.code, cause: describe(error.options.cause) });
  const headers: Record<string, string> = {};
  if (error.options.retryAfter !== undefined) headers['retry-after'] = String(Math.max(1, Math.ceil(error.options.retryAfter)));
  if (error.options.allow) headers.allow = error.options.allow.join(', ');
  const body: ApiErrorBody = { error: { code: error.code, message: error.message } };
  return jsonAnswer(error.status, body, headers);
}

/** A short description for logs: the message, not the stack, and nothing from request bodies. */
export function describe(error: unknown): string | undefined {
  if (error === undefined) return undefined;
  if (error instanceof Error) return `${error.name}: ${error.message}`;
  return String(error);
}

/** Seconds a client waits before it asks again while the store is down: about two health-check periods. */
const STORE_RETRY_AFTER_S = 5;

/**
 * The store failed (or its driver gave up on it): 503 `unavailable`, retryable, with Retry-After. One log line,
 * here, names the store, the operation and the driver's own words; the answer names none of them.
 */
function storeUnavailable(error: StoreFailure, logger: ProxyLogger): Answer {
  logger.error(`the ${error.store} store failed; answering 503 unavailable`, { operation: error.operation, error: describe(error.cause) });
  const body: ApiErrorBody = { error: { code: 'unavailable', message: 'the payment store cannot be used just now; try again' } };
  return jsonAnswer(ERROR_CODES.unavailable, body, { 'retry-after': String(STORE_RETRY_AFTER_S) });
}

/** The browser learns that the service failed or was slow, never what the service said. */
function fromUpstream(error: UpstreamError): ProxyError {
  return error.kind === 'timeout'
    ? new ProxyError('upstream_timeout', 'the payment service did not answer in time; try again', { cause: error })
    : new ProxyError('upstream_error', 'the payment service could not be used just now; try again', { cause: error });
}
