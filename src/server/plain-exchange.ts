/**
 * The node adapter's fast path, and only the node adapter's. On node:http, building an undici Request and
 * Response for each small JSON exchange costs several times what the proxy's own work does (the body of each is
 * a web stream); a handler that offers `[PLAIN_HANDLER]` is therefore served with a light request read straight
 * off the IncomingMessage (node-request.ts), and its answer is written to the socket as it is (node-listener.ts).
 * The proxy declares the same shapes on its side (proxy/http/exchange.ts): the two meet through the `Symbol.for`
 * keys and the shapes alone, so neither imports the other and a Fetch runtime never loads this file.
 */

/** What a plain handler reads of a request. A Fetch Request has all of it. */
export interface PlainRequest {
  readonly method: string;
  readonly url: string;
  /** The URL's path, known without a parse. */
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
