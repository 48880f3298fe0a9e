/**
 * Every answer of the console, in one place: JSON, HTML, CSV and redirects, each with `Cache-Control: no-store`
 * (payments and sessions must never sit in a shared or a browser cache) and headers that keep the page out of
 * frames and its address out of Referer. Errors are `{error: {code, message}}` (and a refusal's facts beside them); the ones before sign-in say
 * nothing about what was asked for.
 */
import type { Answer } from '../proxy/http/exchange.js';
import type { RefusalFacts } from './console-refusals.js';

const COMMON = {
  'cache-control': 'no-store',
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'same-origin',
  'x-frame-options': 'DENY',
};

export const PAGE_CSP =
  "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; object-src 'none'; base-uri 'none'; frame-ancestors 'none'; form-action 'self'";

export class ConsoleError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    /** Facts of a refusal for a page to word in its own language (console-refusals.ts): who marked a refund, and when. */
    readonly detail?: Record<string, string | number>,
  ) {
    super(message);
    this.name = 'ConsoleError';
  }
}

/** A refusal the console page words in the operator's language: its code, and the facts its words need. */
export function refusal<C extends keyof RefusalFacts>(status: number, code: C, message: string, facts: RefusalFacts[C]): ConsoleError {
  return new ConsoleError(status, code, message, facts);
}

/** The payment opened or acted on is not in the ledger (any more). */
export const noPayment = () => refusal(404, 'not_found', 'no payment with this id', { reason: 'no_payment' });
export const unauthorized = () => new ConsoleError(401, 'unauthorized', 'sign in to the console');
export const forbidden = (
  message = 'refused: not a request of the console page',
  facts: RefusalFacts['forbidden'] = { reason: 'not_console_page' },
) => refusal(403, 'forbidden', message, facts);

export function json(status: number, body: unknown, headers: Record<string, string> = {}): Answer {
  return { status, headers: { ...COMMON, 'content-type': 'application/json; charset=utf-8', ...headers }, body: JSON.stringify(body) };
}

export function errorJson(error: ConsoleError, headers: Record<string, string> = {}): Answer {
  // The facts first: none of them may stand in for the code or the message.
  return json(error.status, { error: { ...error.detail, code: error.code, message: error.message } }, headers);
}

export function html(status: number, body: string, headers: Record<string, string> = {}): Answer {
  return {
    status,
    headers: { ...COMMON, 'content-type': 'text/html; charset=utf-8', 'content-security-policy': PAGE_CSP, ...headers },
    body,
  };
}

export function text(status: number, body: string, contentType: string, headers: Record<string, string> = {}): Answer {
  return { status, headers: { ...COMMON, 'content-type': contentType, ...headers }, body };
}

export function redirect(location: string, headers: Record<string, string> = {}): Answer {
  return { status: 303, headers: { ...COMMON, location, ...headers }, body: null };
}
