/**
 * The proxy's way to the payment service on Node: a POST over node:http(s) with kept-alive sockets, its answer
 * read whole. Node's own fetch (undici) spends several hundred microseconds of CPU on each call beyond what
 * node:http does (measured on loopback: about 0.9 ms against 0.3 ms for the same request and answer), and a Fetch
 * Response per answer another 40 us; every status poll that reaches the service pays both. Redirects are not
 * followed: a signed POST answered with one is the service's error, not an address to resend the signature to.
 * Other runtimes (Bun, Deno, workers) build their node:http on their fetch, so they keep fetch.
 */
import { rawHeader } from '../../shared/raw-headers.js';
import { builtinModule } from '../../shared/builtin-module.js';
import { concatBytes } from '../../shared/bytes.js';
import { BodyTooLargeError } from '../../shared/body.js';
import { MAX_ANSWER_BYTES, type ServiceAnswer, type ServiceTransport } from './service-transport.js';

interface NodeHttp {
  request: (url: URL, options: object, onAnswer: (answer: NodeAnswer) => void) => NodeRequest;
  Agent: new (options: { keepAlive: boolean; timeout: number }) => object;
}

interface NodeRequest {
  on(event: 'error', listener: (error: Error) => void): NodeRequest;
  end(body?: string | Uint8Array): void;
}

interface NodeAnswer {
  statusCode?: number;
  rawHeaders: string[];
  on(event: 'data', listener: (chunk: Uint8Array) => void): NodeAnswer;
  on(event: 'end' | 'aborted', listener: () => void): NodeAnswer;
  on(event: 'error', listener: (error: Error) => void): NodeAnswer;
  destroy(): void;
}

/** Node itself: Bun's and Deno's node:http, and workerd's, are built on their fetch, so nothing is gained there. */
function isNode(): boolean {
  const g = globalThis as { process?: { versions?: { node?: string } }; Bun?: unknown; Deno?: unknown; WebSocketPair?: unknown };
  return g.process?.versions?.node !== undefined && g.Bun === undefined && g.Deno === undefined && g.WebSocketPair === undefined;
}

const IDLE_SOCKET_MS = 4_000;

/** The transport over node:http(s), or undefined where the runtime is not Node. */
export function nodeTransport(): ServiceTransport | undefined {
  const http = isNode() ? builtinModule<NodeHttp>('node:http', 'request') : undefined;
  const https = isNode() ? builtinModule<NodeHttp>('node:https', 'request') : undefined;
  if (!http || !https) return undefined;
  // An idle socket is let go after 4 s, as undici does, unless the service's Keep-Alive hint says sooner (Node
  // reads it): reusing one the service has just closed would fail a signed POST that was never delivered.
  const transports = {
    'http:': { module: http, agent: new http.Agent({ keepAlive: true, timeout: IDLE_SOCKET_MS }) },
    'https:': { module: https, agent: new https.Agent({ keepAlive: true, timeout: IDLE_SOCKET_MS }) },
  };
  return async function postOverNodeHttp(address, { headers, body, signal }) {
    const url = new URL(address);
    const transport = transports[url.protocol as keyof typeof transports];
    if (!transport) throw new TypeError(`the service's address must be http or https, not ${url.protocol}`);
    signal.throwIfAborted();
    return new Promise<ServiceAnswer>((resolve, reject) => {
      const request = transport.module.request(url, { method: 'POST', agent: transport.agent, headers, signal }, (answer) => {
        const chunks: Uint8Array[] = [];
        let size = 0;
        answer.on('data', (chunk) => {
          size += chunk.byteLength;
          if (size <= MAX_ANSWER_BYTES) return void chunks.push(chunk);
          chunks.length = 0;
          reject(new BodyTooLargeError(MAX_ANSWER_BYTES));
          answer.destroy();
        });
        answer.on('error', reject);
        answer.on('aborted', () => reject(new Error('the service closed the connection mid-answer')));
        answer.on('end', () =>
          resolve({ status: answer.statusCode ?? 0, header: (name) => rawHeader(answer.rawHeaders, name), bytes: concatBytes(chunks) }),
        );
      });
      request.on('error', reject);
      request.end(body);
    });
  };
}
