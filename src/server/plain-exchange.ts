/**
 * The proxy's own request and answer shapes, beside the Fetch ones. A Fetch `Request` is a PlainRequest, and an
 * Answer becomes a `Response` in one call, so the proxy serves every Fetch runtime unchanged. On node:http,
 * building an undici Request and Response for each small JSON exchange costs several times what the proxy's own
 * work does (the body of each is a web stream); a handler that offers `[PLAIN_HANDLER]` is therefore served by
 * the node adapter with a light request read straight off the IncomingMessage, and its answer is written to the
 * socket as it is. This module imports nothing of Node so that the proxy, which runs everywhere, can use it.
 */

/** What the proxy reads of a request. A Fetch Request has all of it. */
export interface PlainRequest {
  readonly method: string;
  readonly url: string;
  /** The URL's path, where the request knows it without a parse (the node adapter's light request does). */
  readonly pathname?: string;
  readonly headers: { get(name: string): string | null };
  readonly signal: AbortSignal;
  readonly body: ReadableStream<Uint8Array> | null;
  readonly bodyUsed: boolean;
}

/** An answer: a status, its headers (lower-case names) and a body that is text, bytes, a stream or nothing. */
export interface Answer {
  status: number;
  headers: Record<string, string>;
  body: string | Uint8Array<ArrayBuffer> | ReadableStream<Uint8Array> | null;
}

/** Where a handler keeps the plain form of itself: `handler[PLAIN_HANDLER](request, clientAddress)`. */
export const PLAIN_HANDLER = Symbol.for('payin-checkout.plainHandler');

/** An answer that is ready at once is handed back as it is, so the adapter can write it without a promise. */
export type PlainHandler = (request: PlainRequest, clientAddress: string | undefined) => Answer | Promise<Answer>;

/** A light request that can stand in for a Fetch Request when code outside the package asks for one. */
export const AS_FETCH_REQUEST = Symbol.for('payin-checkout.asFetchRequest');

/** The request as a Fetch Request: itself when it is one, else the one its adapter builds (once). */
export function asFetchRequest(request: PlainRequest): Request {
  if (request instanceof Request) return request;
  const build = (request as PlainRequest & { [AS_FETCH_REQUEST]?: () => Request })[AS_FETCH_REQUEST];
  if (!build) throw new TypeError('this request cannot be turned into a Fetch Request');
  return build.call(request);
}

/** The request's path, parsed from its URL only when the request does not know it already. */
export function pathnameOf(request: PlainRequest): string {
  return request.pathname ?? new URL(request.url).pathname;
}

export function toResponse(answer: Answer): Response {
  return new Response(answer.body, { status: answer.status, headers: answer.headers });
}
