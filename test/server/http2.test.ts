/**
 * toNodeListener on HTTP/2: node:http2's compatibility API hands it the same request and answer shapes as
 * node:http, which is how Fastify serves with `http2: true` and how a shop's own TLS server speaks HTTP/2 to
 * browsers. Its raw header list starts with the pseudo-headers (:method, :path, :scheme, :authority), which no
 * Fetch Headers takes, and it has no Host line: the :authority names the host instead.
 */
import { connect, createServer, type ClientHttp2Session, type Http2Server } from 'node:http2';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { toNodeListener } from '../../src/server/node-listener.js';
import { setup } from '../proxy/harness.js';

let server: Http2Server | undefined;
let client: ClientHttp2Session | undefined;
afterEach(async () => {
  client?.close();
  await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
  server = client = undefined;
});

async function http2Shop(listener: ReturnType<typeof toNodeListener>): Promise<string> {
  server = createServer(listener);
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  client = connect(origin);
  return origin;
}

/** One request over the HTTP/2 session: its status and body, or the first `untilText` of a stream. */
function exchange(method: string, path: string, body?: unknown, untilText?: string): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const headers: Record<string, string> = { ':method': method, ':path': path };
    if (body !== undefined) headers['content-type'] = 'application/json';
    const stream = client!.request(headers);
    let status = 0;
    let text = '';
    stream.on('response', (head) => (status = Number(head[':status'])));
    stream.setEncoding('utf8');
    stream.on('data', (chunk: string) => {
      text += chunk;
      if (untilText && text.includes(untilText)) {
        stream.close();
        resolve({ status, text });
      }
    });
    stream.on('end', () => resolve({ status, text }));
    stream.on('error', reject);
    stream.end(body === undefined ? undefined : JSON.stringify(body));
  });
}

describe('the proxy over HTTP/2', () => {
  it('creates a payment and streams its events, and the shop sees the host the browser asked for', async () => {
    const urls: string[] = [];
    const t = setup({
      resolveOrder: (_orderId, _method, request) => {
        urls.push(request.url);
        return { amount: '250.00', currency: 'INR' };
      },
    });
    const origin = await http2Shop(toNodeListener(t.proxy));
    const created = await exchange('POST', '/payin/payments', { orderId: 'A-1', method: 'upi' });
    expect(created.status, created.text).toBe(201);
    expect(urls).toEqual([`${origin}/payin/payments`]);
    const { payment, token } = JSON.parse(created.text) as { payment: { id: string }; token: string };
    const events = await exchange('GET', `/payin/events?paymentId=${payment.id}&token=${token}`, undefined, '\n\n');
    expect(events.status).toBe(200);
    expect(events.text).toMatch(/^event: payment\n/);
  });

  it('serves a handler given as a function too (the Fetch form)', async () => {
    const t = setup();
    await http2Shop(toNodeListener((request) => t.proxy(request)));
    const created = await exchange('POST', '/payin/payments', { orderId: 'A-1', method: 'upi' });
    expect(created.status, created.text).toBe(201);
  });
});
