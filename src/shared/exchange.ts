/**
 * The contract between a handler and the adapter that serves it: the request a handler reads, the answer it
 * gives, and the `Symbol.for` keys through which the node adapter finds a handler's plain form and a light
 * request builds a Fetch Request. A Fetch `Request` is a PlainRequest and an Answer becomes a `Response` in one
 * call, so the proxy serves every Fetch runtime unchanged; on node:http the adapter hands a lighter request and
 * writes the answer to the socket as it is (server/plain-exchange.ts). It lives here so that the proxy, which
 * runs everywhere, and the node adapter both use it without importing each other.
 */

/** What a plain handler reads of a request. A Fetch Request has all of it. */
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

/** The light request's method that builds a Fetch Request when code outside the package asks for one. */
export const AS_FETCH_REQUEST = Symbol.for('payin-checkout.asFetchRequest');
