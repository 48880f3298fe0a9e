/**
 * The proxy's way to the service over a Fetch function: Bun's, Deno's and workerd's fetch (the node:http
 * transport is Node's), or any `options.fetch`. A signed POST is never sent on to where a redirect points: the
 * signature and the body are the merchant's, and a 3xx is the service's error, as on node:http
 * (node-transport.test.ts). runtimes.test.ts beside this file runs it on Bun and Deno too.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { fetchTransport } from '../../../src/proxy/infrastructure/service-transport.js';

const servers: Server[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
});

/** A server on loopback that records what reached it. */
async function listen(handle: (req: IncomingMessage, res: ServerResponse) => void): Promise<{ url: string; reached: string[] }> {
  const reached: string[] = [];
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk));
    req.on('end', () => {
      reached.push(`${req.method} ${req.url} signature=${req.headers.signature ?? ''} ${body}`);
      handle(req, res);
    });
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as { port: number }).port}`, reached };
}

const signedPost = () => ({
  headers: { 'content-type': 'application/json', authorization: 'Bearer merchant-token', signature: 'merchant-signature' },
  body: new TextEncoder().encode('{"amount":"499.00"}'),
  signal: new AbortController().signal,
});

describe('the fetch transport', () => {
  it.each([301, 302, 303, 307, 308])('answers a %i with its status and sends the signed POST nowhere else', async (status) => {
    const elsewhere = await listen((_req, res) => res.end('{}'));
    const service = await listen((_req, res) => res.writeHead(status, { location: `${elsewhere.url}/taken` }).end());
    const answer = await fetchTransport(globalThis.fetch)(`${service.url}/api/v2/payments`, signedPost());
    expect({ status: answer.status, elsewhere: elsewhere.reached }).toEqual({ status, elsewhere: [] });
    expect(service.reached).toEqual(['POST /api/v2/payments signature=merchant-signature {"amount":"499.00"}']);
  });

  it('hands the answer back as it came: status, Signature header and bytes', async () => {
    const service = await listen((_req, res) => res.writeHead(201, { signature: 'abc' }).end('{"id":"P-1"}'));
    const answer = await fetchTransport(globalThis.fetch)(`${service.url}/api/v2/payments`, signedPost());
    expect([answer.status, answer.header('signature'), new TextDecoder().decode(answer.bytes)]).toEqual([201, 'abc', '{"id":"P-1"}']);
  });
});
