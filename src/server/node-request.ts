/**
 * A request read straight off node:http's IncomingMessage, for handlers that take a PlainRequest (the proxy).
 * It builds nothing it is not asked for: headers are looked up in the raw header list, the abort signal exists
 * once someone listens to it, and a small body already read by the adapter is handed over as bytes rather than
 * through a web stream. A Fetch Request with the same method, URL, headers and body is built only when code
 * outside the package needs one (the shop's own `resolveOrder` or `clientId`).
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { Readable } from 'node:stream';
import { BODY_CONSUMED, BYTES_IN_HAND } from '../shared/body.js';
import { AS_FETCH_REQUEST, type PlainRequest } from './plain-exchange.js';
import { fetchHeaders, rawHeader, rawHost } from '../shared/raw-headers.js';
import { hasDotSegment, parseRequestTarget, type RequestTarget } from './request-target.js';

export class NodeRequest implements PlainRequest {
  readonly method: string;
  readonly url: string;
  /** The URL's path, known without parsing the URL again (the proxy's router reads it). */
  readonly pathname: string;
  /** The peer's address, for the per-client limits (remote-address.ts reads it). */
  readonly remoteAddress: string | undefined;
  readonly headers: RawHeaders;
  readonly #req: IncomingMessage;
  /** The answer in the making, whose early close aborts `signal`; none for a request that is not served. */
  readonly #res: ServerResponse | undefined;
  readonly #bytes: Uint8Array<ArrayBuffer> | undefined;
  /** The body was read before the adapter got the request (bodyReadBefore). */
  readonly #consumed: boolean;
  #taken = false;
  #stream: ReadableStream<Uint8Array> | null | undefined;
  #controller: AbortController | undefined;
  #request: Request | undefined;

  /** `bytes`: the whole body when the adapter read it already. Throws on a URL that cannot be parsed. */
  constructor(req: IncomingMessage, bytes: Uint8Array<ArrayBuffer> | undefined, res?: ServerResponse) {
    this.#req = req;
    this.headers = new RawHeaders(req.rawHeaders);
    this.#res = res;
    this.#bytes = bytes;
    this.method = req.method ?? 'GET';
    ({ url: this.url, pathname: this.pathname } = requestTarget(req));
    this.remoteAddress = req.socket.remoteAddress;
    this.#consumed = !bytes && bodyReadBefore(req);
  }

  /** Aborted when the client goes away before the answer is written; watched from the first time it is asked for. */
  get signal(): AbortSignal {
    if (!this.#controller) {
      const controller = new AbortController();
      this.#controller = controller;
      const res = this.#res;
      if (!res || (res.destroyed && !res.writableFinished)) controller.abort();
      else res.once('close', () => res.writableFinished || controller.abort());
    }
    return this.#controller.signal;
  }

  get body(): ReadableStream<Uint8Array> | null {
    if (this.#stream === undefined) this.#stream = this.#hasBody() ? this.#openStream() : null;
    return this.#stream;
  }

  get bodyUsed(): boolean {
    return this.#taken || (this.#stream?.locked ?? false);
  }

  get [BODY_CONSUMED](): boolean {
    return this.#consumed && this.#hasMethodBody();
  }

  /** readBody's shortcut: the bytes the adapter read, once, unless the stream was asked for instead. */
  [BYTES_IN_HAND](): Uint8Array<ArrayBuffer> | undefined {
    if (this.#bytes === undefined || this.#taken || this.#stream !== undefined) return undefined;
    this.#taken = true;
    return this.#bytes;
  }

  /**
   * The same request as a Fetch Request, built once. Its body is the bytes the adapter read, so a hook may read
   * them again; a body that arrived as a stream has been read by the proxy and is not repeated.
   */
  [AS_FETCH_REQUEST](): Request {
    if (!this.#request) {
      const headers = fetchHeaders(this.#req.rawHeaders);
      const body = this.#hasMethodBody() ? this.#bytes : undefined;
      this.#request = new Request(this.url, { method: this.method, headers, signal: this.signal, body });
      Object.defineProperty(this.#request, 'remoteAddress', { value: this.remoteAddress, enumerable: false });
    }
    return this.#request;
  }

  #hasMethodBody(): boolean {
    return this.method !== 'GET' && this.method !== 'HEAD';
  }

  #hasBody(): boolean {
    return this.#hasMethodBody() && !this.#consumed && !this.#taken;
  }

  #openStream(): ReadableStream<Uint8Array> {
    const bytes = this.#bytes;
    if (!bytes) return Readable.toWeb(this.#req) as ReadableStream<Uint8Array>;
    return new ReadableStream<Uint8Array>({
      start(controller) {
        if (bytes.byteLength) controller.enqueue(bytes);
        controller.close();
      },
    });
  }
}

/** Headers.get over node's raw list, a method rather than a closure made for every request. */
class RawHeaders {
  constructor(private readonly raw: readonly string[]) {}

  get(name: string): string | null {
    return rawHeader(this.raw, name);
  }
}

/**
 * A body parser mounted in front (express.json(), any parser) drained the stream and left nothing to read. Judged by
 * the stream alone: Express 4's parsers set `req.body = {}` on every request they pass by, so a shop's own form
 * parser (`express.urlencoded()`) in front left the proxy's JSON unread but `req.body` set.
 */
export function bodyReadBefore(req: IncomingMessage): boolean {
  return req.readableEnded || req.readableDidRead;
}

/**
 * The request's absolute URL and its path, from its target and Host; throws on one that cannot be parsed, and on
 * one with a dot segment, which could climb out of the path a web server in front forwarded (hasDotSegment).
 */
export function requestTarget(req: IncomingMessage): RequestTarget {
  const protocol = (req.socket as { encrypted?: boolean }).encrypted ? 'https' : 'http';
  const target = req.url ?? '/';
  if (hasDotSegment(target)) throw new TypeError('a request target with a dot segment');
  return parseRequestTarget(target, protocol, rawHost(req.rawHeaders) ?? 'localhost');
}
