/**
 * The proxy's default way to the service on Node: its signed POSTs over node:http with kept-alive sockets,
 * answered as a Fetch Response; everything else through the fetch it falls back to.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { serviceFetch } from '../../src/proxy/node-fetch.js';

let server: Server | undefined;
afterEach(async () => {
  server?.closeAllConnections();
  await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
});

async function listen(
  handle: (req: IncomingMessage, body: Buffer, res: ServerResponse) => void,
): Promise<{ url: string; sockets: () => number }> {
  let sockets = 0;
  server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => handle(req, Buffer.concat(chunks), res));
  });
  server.on('connection', () => sockets++);
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return { url: `http://127.0.0.1:${port}`, sockets: () => sockets };
}

const refuse: typeof fetch = async () => {
  throw new Error('the fallback was not to be used');
};

describe('the service fetch on Node', () => {
  it('posts the exact bytes and headers, reads the answer as a Response and keeps the socket for the next call', async () => {
    const seen: { method?: string; path?: string; body: string; signature?: string; auth?: string }[] = [];
    const service = await listen((req, body, res) => {
      seen.push({
        method: req.method,
        path: req.url,
        body: body.toString(),
        signature: req.headers.signature as string,
        auth: req.headers.authorization,
      });
      res.writeHead(201, { 'content-type': 'application/json', signature: 'abc' });
      res.end('{"status": true}');
    });
    const post = serviceFetch(refuse);
    const body = new TextEncoder().encode('{"b": 1,  "a": "Иван"}');
    for (let i = 0; i < 3; i++) {
      const answer = await post(`${service.url}/api/v2/status`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: 'Bearer t', signature: 'sig' },
        body,
      });
      expect([answer.status, answer.headers.get('signature'), await answer.text()]).toEqual([201, 'abc', '{"status": true}']);
    }
    expect(seen).toHaveLength(3);
    expect(seen[2]).toEqual({ method: 'POST', path: '/api/v2/status', body: '{"b": 1,  "a": "Иван"}', signature: 'sig', auth: 'Bearer t' });
    expect(service.sockets()).toBe(1);
  });

  it('does not follow a redirect with a signed body', async () => {
    const service = await listen((_req, _body, res) => {
      res.writeHead(307, { location: '/elsewhere' });
      res.end();
    });
    const answer = await serviceFetch(refuse)(`${service.url}/api/v2/payments`, { method: 'POST', body: '{}' });
    expect(answer.status).toBe(307);
  });

  it('rejects when the signal aborts a slow answer, and when nothing listens', async () => {
    const service = await listen(() => {});
    const controller = new AbortController();
    const pending = serviceFetch(refuse)(`${service.url}/slow`, { method: 'POST', body: '{}', signal: controller.signal });
    controller.abort();
    await expect(pending).rejects.toThrow(/abort/i);
    await expect(serviceFetch(refuse)('http://127.0.0.1:9/x', { method: 'POST', body: '{}' })).rejects.toThrow(/ECONNREFUSED/);
  });

  it('hands every other call to the fetch it falls back to', async () => {
    const calls: string[] = [];
    const fallback: typeof fetch = async (input, init) => {
      calls.push(input instanceof Request ? `${input.method} ${input.url}` : `${init?.method ?? 'GET'} ${String(input)}`);
      return new Response('fallback');
    };
    const fetchIt = serviceFetch(fallback);
    await fetchIt('http://127.0.0.1:9/list.json');
    await fetchIt('http://127.0.0.1:9/stream', { method: 'POST', body: new ReadableStream(), duplex: 'half' } as RequestInit);
    await fetchIt(new Request('http://127.0.0.1:9/req', { method: 'POST', body: '{}' }));
    await fetchIt('ftp://127.0.0.1/file', { method: 'POST', body: '{}' });
    expect(calls).toEqual([
      'GET http://127.0.0.1:9/list.json',
      'POST http://127.0.0.1:9/stream',
      'POST http://127.0.0.1:9/req',
      'POST ftp://127.0.0.1/file',
    ]);
  });
});
