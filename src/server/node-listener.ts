/**
 * Serves a Fetch handler `(Request) => Promise<Response>` on node:http, the shape of @hono/node-server's
 * listener: the incoming body is passed on as a stream with its exact bytes (signatures are computed over
 * them), streamed answers such as server-sent events are written as they come, and a client that goes away
 * aborts `request.signal` so that the handler can let go of its stream. A handler that also has a plain form
 * (the proxy, see plain-exchange.ts) is served through it: a light request in, its answer written as it is.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Http2ServerRequest, Http2ServerResponse } from 'node:http2';
import { Readable } from 'node:stream';
import { BODY_CONSUMED } from '../shared/body.js';
import { sendEventStream } from './event-stream-sink.js';
import { bodyReadBefore, NodeRequest, requestTarget } from './node-request.js';
import { fetchHeaders, rawHeader } from '../shared/raw-headers.js';
import { PLAIN_HANDLER, type Answer, type PlainHandler } from './plain-exchange.js';

export type FetchHandler = (request: Request) => Promise<Response> | Response;

export interface NodeListenerOptions {
  /** Called when the handler throws; the client gets a bare 500 either way. */
  onError?: (error: unknown) => void;
}

/**
 * The listener for node:http's `createServer` (and Express, Fastify's `request.raw`), or node:http2's, whose
 * compatibility request and answer have every member the listener uses.
 */
export interface NodeListener {
  (req: IncomingMessage, res: ServerResponse): void;
  (req: Http2ServerRequest, res: Http2ServerResponse): void;
}

export function toNodeListener(handler: FetchHandler, options: NodeListenerOptions = {}): NodeListener {
  const plain = (handler as FetchHandler & { [PLAIN_HANDLER]?: PlainHandler })[PLAIN_HANDLER];
  const listener = plain ? plainListener(plain, options) : fetchListener(handler, options);
  return listener as (req: IncomingMessage | Http2ServerRequest, res: ServerResponse | Http2ServerResponse) => void;
}

function plainListener(handler: PlainHandler, options: NodeListenerOptions) {
  // No promise of its own: a small body arrives by events and an answer ready at once is written in the same
  // turn, as a bare node:http handler would; only a handler that has to wait hands back a promise.
  return function listener(req: IncomingMessage, res: ServerResponse): void {
    if (!announcesSmallBody(req)) {
      servePlain(handler, options, req, res, undefined);
      return;
    }
    readSmallBody(req, (error, bytes) => {
      if (error) refuse(res, 400);
      else servePlain(handler, options, req, res, bytes);
    });
  };
}

function servePlain(
  handler: PlainHandler,
  options: NodeListenerOptions,
  req: IncomingMessage,
  res: ServerResponse,
  bytes: Uint8Array<ArrayBuffer> | undefined,
): void {
  let request: NodeRequest;
  try {
    request = new NodeRequest(req, bytes, res);
  } catch {
    refuse(res, 400);
    return;
  }
  let answer: Answer | Promise<Answer>;
  try {
    // The peer's address travels on the request itself (remote-address.ts reads it).
    answer = handler(request, undefined);
  } catch (error) {
    fail(res, error, options);
    return;
  }
  if (answer instanceof Promise) {
    answer.then(
      (done) => writeAnswer(done, request, res, options),
      (error) => fail(res, error, options),
    );
  } else {
    writeAnswer(answer, request, res, options);
  }
}

function writeAnswer(answer: Answer, request: NodeRequest, res: ServerResponse, options: NodeListenerOptions): void {
  try {
    res.writeHead(answer.status, answer.headers);
  } catch (error) {
    fail(res, error, options);
    return;
  }
  const { body } = answer;
  if (body instanceof ReadableStream) void writeStream(body, res, request.signal);
  else res.end(body ?? undefined);
}

function fetchListener(handler: FetchHandler, options: NodeListenerOptions) {
  return async function listener(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const controller = new AbortController();
    res.on('close', () => {
      if (!res.writableFinished) controller.abort();
    });
    let request: Request;
    try {
      const small = smallBody(req);
      request = toRequest(req, controller.signal, small && (await small));
    } catch {
      // The Fetch API refuses some requests Node accepts: the methods it forbids (TRACE, TRACK, CONNECT) and
      // malformed URLs or header values. None of them can reach a Fetch handler; they are the client's error.
      refuse(res, FORBIDDEN_METHODS.has((req.method ?? '').toUpperCase()) ? 405 : 400);
      return;
    }
    let response: Response;
    try {
      response = await handler(request);
    } catch (error) {
      fail(res, error, options);
      return;
    }
    await writeResponse(response, res, controller.signal);
  };
}

const FORBIDDEN_METHODS = new Set(['TRACE', 'TRACK', 'CONNECT']);

/** A request no handler can be given: a method Fetch forbids (405) or a malformed one (400). */
function refuse(res: ServerResponse, status: 400 | 405): void {
  res.writeHead(status, { 'content-type': 'application/json', ...(status === 405 ? { allow: 'GET, POST, OPTIONS' } : {}) });
  res.end(
    status === 405
      ? '{"error":{"code":"method_not_allowed","message":"method not allowed"}}'
      : '{"error":{"code":"bad_request","message":"malformed request"}}',
  );
}

/** The handler threw: a bare 500, or a cut connection when the answer had begun. */
function fail(res: ServerResponse, error: unknown, options: NodeListenerOptions): void {
  options.onError?.(error);
  if (!res.headersSent) {
    res.writeHead(500, { 'content-type': 'application/json' });
    res.end('{"error":{"code":"internal","message":"internal error"}}');
  } else {
    res.destroy();
  }
}

/** Bodies that say they are this small are read here at once: cheaper than a web stream over the socket. */
const SMALL_BODY_BYTES = 64 * 1024;

/** The request says (Content-Length) that its body is small, and nothing read it before: read here at once. */
function announcesSmallBody(req: IncomingMessage): boolean {
  // From the raw list: the first look at `req.headers` builds the whole header object.
  const length = Number(rawHeader(req.rawHeaders, 'content-length'));
  return Number.isSafeInteger(length) && length > 0 && length <= SMALL_BODY_BYTES && !bodyReadBefore(req);
}

/**
 * The whole body of a request that announcesSmallBody, else undefined and the body goes on as a stream. A body
 * longer than announced is left to the stream as well.
 */
function smallBody(req: IncomingMessage): Promise<Uint8Array<ArrayBuffer> | undefined> | undefined {
  if (!announcesSmallBody(req)) return undefined;
  return new Promise((resolve, reject) => readSmallBody(req, (error, bytes) => (error ? reject(error) : resolve(bytes))));
}

/** Reads a body announced small, by events: one body of a few hundred bytes is one 'data' and one 'end'. */
function readSmallBody(req: IncomingMessage, done: (error: Error | undefined, bytes?: Uint8Array<ArrayBuffer>) => void): void {
  const chunks: Buffer[] = [];
  let size = 0;
  const onData = (chunk: Buffer) => {
    chunks.push(chunk);
    size += chunk.length;
  };
  const onEnd = () => {
    stop();
    // Copied even when it is one chunk: handing the chunk itself over saved nothing measurable (the first runs
    // of bench/proxy-cost.mjs with it looked slower, though that figure later moved 0.5-1.7 ms on the same code).
    done(undefined, Buffer.concat(chunks, size) as Uint8Array<ArrayBuffer>);
  };
  const onError = (error: Error) => {
    stop();
    done(error);
  };
  const onClose = () => onError(new Error('the client went away before its body arrived'));
  // `on`, not `once`: whichever settles takes all four off, and `once` would wrap each listener anew.
  const stop = () => req.off('data', onData).off('end', onEnd).off('error', onError).off('close', onClose);
  req.on('data', onData).on('end', onEnd).on('error', onError).on('close', onClose);
}

function toRequest(req: IncomingMessage, signal: AbortSignal, small?: Uint8Array): Request {
  const { url } = requestTarget(req);
  const headers = fetchHeaders(req.rawHeaders);
  const method = req.method ?? 'GET';
  const init: RequestInit & { duplex?: 'half' } = { method, headers, signal };
  const consumed = !small && bodyReadBefore(req);
  if (small && method !== 'GET' && method !== 'HEAD') {
    init.body = small as Uint8Array<ArrayBuffer>;
  } else if (method !== 'GET' && method !== 'HEAD' && !consumed) {
    init.body = Readable.toWeb(req) as ReadableStream<Uint8Array>;
    init.duplex = 'half';
  }
  const request = new Request(url, init);
  if (consumed && method !== 'GET' && method !== 'HEAD') Object.defineProperty(request, BODY_CONSUMED, { value: true });
  // The peer's address for per-client limits; Fetch has no standard place for it.
  Object.defineProperty(request, 'remoteAddress', { value: req.socket.remoteAddress, enumerable: false });
  return request;
}

export { remoteAddressOf } from '../shared/remote-address.js';

async function writeResponse(response: Response, res: ServerResponse, signal: AbortSignal): Promise<void> {
  const headers: Record<string, string | string[]> = {};
  response.headers.forEach((value, key) => {
    if (key === 'set-cookie') return;
    headers[key] = value;
  });
  const cookies = response.headers.getSetCookie();
  if (cookies.length) headers['set-cookie'] = cookies;
  // A Fetch Response has an empty statusText unless one was given; Node then writes its standard phrase.
  if (response.statusText) res.writeHead(response.status, response.statusText, headers);
  else res.writeHead(response.status, headers);
  if (!response.body) {
    res.end();
    return;
  }
  await writeStream(response.body, res, signal);
}

/**
 * Until the answer takes more (drain) or is gone (close). Whichever comes first removes the other's listener: a
 * long body to a slow client waits many times, and each left 'close' listener stayed on the answer till its end.
 */
function drained(res: ServerResponse): Promise<void> {
  return new Promise<void>((resolve) => {
    const done = () => {
      res.off('drain', done).off('close', done);
      resolve();
    };
    res.on('drain', done).on('close', done);
  });
}

/** A streamed body (server-sent events among them), written as it comes; the client leaving cancels it. */
async function writeStream(body: ReadableStream<Uint8Array>, res: ServerResponse, signal: AbortSignal): Promise<void> {
  // The proxy's event streams are written straight to the socket (see event-stream-sink.ts).
  if (sendEventStream(body, res)) return;
  const reader = body.getReader();
  const stop = () => void reader.cancel().catch(() => {});
  signal.addEventListener('abort', stop, { once: true });
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      if (!res.write(value)) await drained(res);
      if (signal.aborted) break;
    }
    res.end();
  } catch {
    res.destroy();
  } finally {
    signal.removeEventListener('abort', stop);
  }
}
