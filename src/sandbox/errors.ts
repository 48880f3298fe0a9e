/**
 * The sandbox's one error class and the one place where an error becomes a Response. Every refusal, on the
 * service's routes and on the sandbox's own, has the shape the real service uses for failures:
 * `{status: false, code, message}` with an integer `code` (here always the HTTP status the refusal would have,
 * since the service publishes no list of codes). One shape everywhere keeps the console and the tests simple.
 * The service answers a failure with a non-2xx status OR with a 2xx and `status: false`, so the sandbox does both:
 * what it refuses before it knows the merchant (credentials, method, size, content type) keeps its HTTP status,
 * and its refusal of what a known merchant asked (a field, a payment it does not have) comes with HTTP 200, so that
 * a client that reads the HTTP status alone takes that refusal for a payment here, not in production. Messages
 * name the field or header at fault and the likely fix; an unexpected error never shows its stack.
 */
import { BodyTooLargeError } from '../shared/body.js';
import { jsonAnswer, type AnswerScope } from './answers.js';

export class SandboxError extends Error {
  /** The integer `code` of the answer body. */
  readonly code: number;
  /** For 405: the methods the route does accept. */
  readonly allow: string | undefined;
  /** A gateway's HTML page answered instead of the service's refusal, with no Signature (the htmlErrors fault). */
  readonly page: string | undefined;

  constructor(
    readonly status: number,
    message: string,
    options: { code?: number; allow?: string; page?: string } = {},
  ) {
    super(message);
    this.name = 'SandboxError';
    this.code = options.code ?? status;
    this.allow = options.allow;
    this.page = options.page;
  }
}

/** The largest body any route reads (64 KiB): the service's own messages are far smaller. */
export const MAX_BODY_BYTES = 64 * 1024;

function asSandboxError(error: unknown, onError: (error: unknown) => void): SandboxError {
  if (error instanceof SandboxError) return error;
  if (error instanceof BodyTooLargeError) {
    return new SandboxError(413, `the body is larger than ${error.limit} bytes; the sandbox reads at most 64 KiB`);
  }
  onError(error);
  return new SandboxError(500, 'internal error in the sandbox');
}

/** Refusals of what a known merchant asked: a field the service will not take (400), a payment it lacks (404). */
const REFUSED_WITH_200 = new Set([400, 404]);

/** Turns anything thrown while answering into the refusal the client sees. */
export function errorAnswer(error: unknown, scope: AnswerScope, onError: (error: unknown) => void): Promise<Response> {
  const e = asSandboxError(error, onError);
  if (e.page !== undefined) {
    // Not the service's answer: the gateway in front of it neither signs nor speaks JSON.
    const headers = { 'content-type': 'text/html', 'cache-control': 'no-store' };
    return Promise.resolve(new Response(e.page, { status: e.status, headers }));
  }
  const headers: Record<string, string> = {};
  if (e.allow) headers.allow = e.allow;
  const status = scope.authenticated && REFUSED_WITH_200.has(e.status) ? 200 : e.status;
  return jsonAnswer(status, { status: false, code: e.code, message: e.message }, scope, headers);
}
