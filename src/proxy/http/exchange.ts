/**
 * The request and answer the proxy's routes work on. A Fetch `Request` is a ProxyRequest and an Answer becomes a
 * `Response` in one call, so the proxy serves every Fetch runtime unchanged. The node adapter hands a lighter
 * request of its own and writes the answer to the socket as it is (server/plain-exchange.ts, its side of the same
 * shapes): the two meet through the `Symbol.for` keys below and the shapes alone, so that the proxy, which runs
 * everywhere, imports nothing of the node adapter and the adapter nothing of the proxy.
 */

/** What the proxy reads of a request. A Fetch Request has all of it. */
export interface ProxyRequest {
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

/** Where the proxy keeps the plain form of itself, for an adapter that knows the key. */
export const PLAIN_HANDLER = Symbol.for('payin-checkout.plainHandler');

/** An answer that is ready at once is handed back as it is, so the adapter can write it without a promise. */
export type PlainHandler = (request: ProxyRequest, clientAddress: string | undefined) => Answer | Promise<Answer>;

/** How a light request builds the Fetch Request that code outside the package may ask for. */
const AS_FETCH_REQUEST = Symbol.for('payin-checkout.asFetchRequest');

/** The request as a Fetch Request (for the shop's `resolveOrder` and `clientId`): itself when it is one. */
export function asFetchRequest(request: ProxyRequest): Request {
  if (request instanceof Request) return request;
  const build = (request as ProxyRequest & { [AS_FETCH_REQUEST]?: () => Request })[AS_FETCH_REQUEST];
  if (!build) throw new TypeError('this request cannot be turned into a Fetch Request');
  return build.call(request);
}

/** The request's path, parsed from its URL only when the request does not know it already. */
export function pathnameOf(request: ProxyRequest): string {
  return request.pathname ?? new URL(request.url).pathname;
}

export function toResponse(answer: Answer): Response {
  return new Response(answer.body, { status: answer.status, headers: answer.headers });
}
