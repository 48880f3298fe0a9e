/**
 * The default way to the payment service on Node: a POST over node:http(s) with kept-alive sockets, answered as
 * a Fetch Response. Node's own fetch (undici) spends several hundred microseconds of CPU on each call beyond what
 * node:http does (measured on loopback: about 0.9 ms against 0.3 ms for the same request and answer), and every
 * status poll that reaches the service pays it. Only what the proxy sends goes this way: a POST whose body is
 * text or bytes. Anything else (a GET such as the SBP bank list, a Request object, a streamed body) goes to
 * globalThis.fetch, and so does every call on other runtimes (Bun, Deno, edge workers).
 * Redirects are not followed: a signed POST answered with one is the service's error, not an address to resend
 * the signature to.
 */

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
  statusMessage?: string;
  rawHeaders: string[];
  on(event: 'data', listener: (chunk: Uint8Array) => void): NodeAnswer;
  on(event: 'end' | 'aborted', listener: () => void): NodeAnswer;
  on(event: 'error', listener: (error: Error) => void): NodeAnswer;
}

/** Node itself: Bun's and Deno's node:http, and workerd's, are built on their fetch, so nothing is gained there. */
function isNode(): boolean {
  const g = globalThis as { process?: { versions?: { node?: string } }; Bun?: unknown; Deno?: unknown; WebSocketPair?: unknown };
  return g.process?.versions?.node !== undefined && g.Bun === undefined && g.Deno === undefined && g.WebSocketPair === undefined;
}

function builtin(id: string): NodeHttp | undefined {
  const process = (globalThis as { process?: { getBuiltinModule?: (id: string) => unknown } }).process;
  if (!isNode()) return undefined;
  try {
    const module = process?.getBuiltinModule?.(id) as Partial<NodeHttp> | undefined;
    return typeof module?.request === 'function' ? (module as NodeHttp) : undefined;
  } catch {
    return undefined;
  }
}

const IDLE_SOCKET_MS = 4_000;

/** A fetch for the proxy's calls to the service: node:http where the runtime has it, else `fallback` itself. */
export function serviceFetch(fallback: typeof fetch): typeof fetch {
  const http = builtin('node:http');
  const https = builtin('node:https');
  if (!http || !https) return fallback;
  // An idle socket is let go after 4 s, as undici does, unless the service's Keep-Alive hint says sooner (Node
  // reads it): reusing one the service has just closed would fail a signed POST that was never delivered.
  const transports = {
    'http:': { module: http, agent: new http.Agent({ keepAlive: true, timeout: IDLE_SOCKET_MS }) },
    'https:': { module: https, agent: new https.Agent({ keepAlive: true, timeout: IDLE_SOCKET_MS }) },
  };
  return async function fetchOverNodeHttp(input, init) {
    const body = init?.body;
    const url = typeof input === 'string' || input instanceof URL ? new URL(input) : undefined;
    const transport = url && transports[url.protocol as keyof typeof transports];
    if (!transport || init?.method !== 'POST' || !(typeof body === 'string' || body instanceof Uint8Array)) {
      return fallback(input, init);
    }
    return post(transport.module, transport.agent, url, body, init);
  };
}

function post(module: NodeHttp, agent: object, url: URL, body: string | Uint8Array, init: RequestInit): Promise<Response> {
  const signal = init.signal ?? undefined;
  signal?.throwIfAborted();
  const headers: Record<string, string> = {};
  new Headers(init.headers).forEach((value, key) => {
    headers[key] = value;
  });
  return new Promise<Response>((resolve, reject) => {
    const request = module.request(url, { method: 'POST', agent, headers, signal }, (answer) => {
      const chunks: Uint8Array[] = [];
      answer.on('data', (chunk) => chunks.push(chunk));
      answer.on('error', reject);
      answer.on('aborted', () => reject(new Error('the service closed the connection mid-answer')));
      answer.on('end', () => {
        const status = answer.statusCode ?? 0;
        const answerHeaders = new Headers();
        for (let i = 0; i + 1 < answer.rawHeaders.length; i += 2) answerHeaders.append(answer.rawHeaders[i]!, answer.rawHeaders[i + 1]!);
        const nullBody = status === 204 || status === 205 || status === 304;
        try {
          resolve(
            new Response(nullBody ? null : joined(chunks), { status, statusText: answer.statusMessage ?? '', headers: answerHeaders }),
          );
        } catch (error) {
          reject(error);
        }
      });
    });
    request.on('error', reject);
    request.end(body);
  });
}

function joined(chunks: Uint8Array[]): Uint8Array<ArrayBuffer> {
  let size = 0;
  for (const chunk of chunks) size += chunk.byteLength;
  const out = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    out.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return out;
}
