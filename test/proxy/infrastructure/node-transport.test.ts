/**
 * The proxy's default way to the service on Node: its signed POSTs over node:http with kept-alive sockets, the
 * answer read whole.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { nodeTransport } from '../../../src/proxy/infrastructure/node-transport.js';
import { BodyTooLargeError } from '../../../src/shared/body.js';
import type { ServicePost } from '../../../src/proxy/infrastructure/service-transport.js';

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

const transport = () => {
  const made = nodeTransport();
  if (!made) throw new Error('no node:http transport on Node');
  return made;
};

const post = (body: string, signal = new AbortController().signal, headers: Record<string, string> = {}): ServicePost => ({
  headers,
  body: new TextEncoder().encode(body),
  signal,
});

describe('the service transport on Node', () => {
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
    const send = transport();
    for (let i = 0; i < 3; i++) {
      const answer = await send(
        `${service.url}/api/v2/status`,
        post('{"b": 1,  "a": "Иван"}', undefined, { 'content-type': 'application/json', authorization: 'Bearer t', signature: 'sig' }),
      );
      expect([answer.status, answer.header('Signature'), answer.header('x-absent'), new TextDecoder().decode(answer.bytes)]).toEqual([
        201,
        'abc',
        null,
        '{"status": true}',
      ]);
    }
    expect(seen).toHaveLength(3);
    expect(seen[2]).toEqual({ method: 'POST', path: '/api/v2/status', body: '{"b": 1,  "a": "Иван"}', signature: 'sig', auth: 'Bearer t' });
    expect(service.sockets()).toBe(1);
  });

  it('stops reading an answer past its size cap and lets the connection go', async () => {
    let written = 0;
    let closed = false;
    const service = await listen((_req, _body, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.on('close', () => (closed = true));
      const chunk = Buffer.alloc(64 * 1024, 0x20);
      // Endless, but for the test's bound (256 MiB), and only as fast as the proxy reads.
      const more = () => {
        while (!closed && written < 256 * 1024 * 1024) {
          written += chunk.length;
          if (!res.write(chunk)) return void res.once('drain', more);
        }
        res.end();
      };
      more();
    });
    await expect(transport()(`${service.url}/api/v2/status`, post('{}'))).rejects.toBeInstanceOf(BodyTooLargeError);
    expect(written).toBeLessThan(256 * 1024 * 1024);
  });

  it('does not follow a redirect with a signed body', async () => {
    const service = await listen((_req, _body, res) => {
      res.writeHead(307, { location: '/elsewhere' });
      res.end();
    });
    const answer = await transport()(`${service.url}/api/v2/payments`, post('{}'));
    expect(answer.status).toBe(307);
  });

  it('rejects when the signal aborts a slow answer, and when nothing listens', async () => {
    const service = await listen(() => {});
    const controller = new AbortController();
    const pending = transport()(`${service.url}/slow`, post('{}', controller.signal));
    controller.abort();
    await expect(pending).rejects.toThrow(/abort/i);
    await expect(transport()('http://127.0.0.1:9/x', post('{}'))).rejects.toThrow(/ECONNREFUSED/);
  });
});
