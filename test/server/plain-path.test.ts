/**
 * `toNodeListener(proxy)` serves the proxy through its plain form (a light request read off node:http, the
 * answer written as it is) instead of building a Fetch Request and Response for each exchange. The shop must not
 * be able to tell: every answer is the one the Fetch handler gives, and the shop's own hooks still get a Fetch
 * Request.
 */
import { request as httpRequest, type OutgoingHttpHeaders } from 'node:http';
import { connect, type Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { createPayinProxy, type PayinProxyOptions } from '../../src/proxy/index.js';
import { silentLogger } from '../../src/proxy/logger.js';
import { readBody } from '../../src/shared/body.js';
import { remoteAddressOf } from '../../src/shared/remote-address.js';
import { PLAIN_HANDLER, type PlainHandler, type PlainRequest } from '../../src/server/plain-exchange.js';
import { serve, type RunningServer } from '../../src/server/serve.js';
import { createSandbox, DEMO_MERCHANT } from '../../src/sandbox/index.js';
import { ManualClock } from '../../src/shared/manual-clock.js';

const running: RunningServer[] = [];
afterEach(async () => {
  for (const server of running.splice(0)) await server.close();
});

async function served(handler: Parameters<typeof serve>[0]): Promise<string> {
  const server = await serve(handler);
  running.push(server);
  return server.url;
}

/** A handler that offers only a plain form, to look at the light request itself. */
function plainOnly(handle: PlainHandler) {
  return Object.assign(() => new Response('the Fetch form is not used here', { status: 500 }), { [PLAIN_HANDLER]: handle });
}

const SHOP = 'https://shop.example';

function proxyWith(options: Partial<PayinProxyOptions> = {}) {
  const clock = new ManualClock(Date.parse('2026-11-23T10:00:00Z'));
  const sandbox = createSandbox({ requisitesDelayMs: 0, clock });
  return createPayinProxy({
    clock,
    provider: { baseUrl: 'http://sandbox.test', merchantId: DEMO_MERCHANT.id, token: DEMO_MERCHANT.token, secret: DEMO_MERCHANT.secret },
    callbackUrl: 'http://127.0.0.1:9/payin/callback',
    resolveOrder: () => ({ amount: '499.00', currency: 'INR' }),
    fetch: async (input, init) => sandbox(new Request(input, init)),
    allowedOrigins: [SHOP],
    logger: silentLogger,
    reconcileEveryMs: 0,
    env: {},
    ...options,
  });
}

/** Status, the headers a browser acts on, and the body. */
async function seen(answer: Response) {
  const headers: Record<string, string | null> = {};
  for (const name of [
    'content-type',
    'cache-control',
    'vary',
    'allow',
    'retry-after',
    'access-control-allow-origin',
    'access-control-allow-methods',
  ]) {
    headers[name] = answer.headers.get(name);
  }
  const text = await answer.text();
  return { status: answer.status, headers, body: text };
}

describe('the proxy on node:http', () => {
  it('answers every kind of request exactly as its Fetch handler does', async () => {
    const proxy = proxyWith();
    const plain = await served(proxy);
    const fetched = await served((request) => proxy(request));
    const json = { 'content-type': 'application/json', origin: SHOP };
    const big = JSON.stringify({ paymentId: 'x'.repeat(70 * 1024), token: 't' });
    const cases: [string, RequestInit][] = [
      ['/payin/status', { method: 'OPTIONS', headers: { origin: SHOP, 'access-control-request-method': 'POST' } }],
      ['/payin/nowhere', { method: 'GET' }],
      ['/elsewhere', { method: 'GET' }],
      ['/payin/status', { method: 'PUT', headers: json, body: '{}' }],
      ['/payin/status', { method: 'POST', headers: { 'content-type': 'text/plain' }, body: '{}' }],
      ['/payin/status', { method: 'POST', headers: json, body: '{"paymentId":' }],
      ['/payin/status', { method: 'POST', headers: json, body: '{"amount":"1"}' }],
      ['/payin/status', { method: 'POST', headers: json, body: big }],
      ['/payin/status', { method: 'POST', headers: json, body: '{"paymentId":"unknown","token":"wrong"}' }],
      ['/payin/events?paymentId=unknown&token=wrong', { method: 'GET', headers: { origin: SHOP } }],
    ];
    for (const [path, init] of cases) {
      const [a, b] = await Promise.all([seen(await fetch(plain + path, init)), seen(await fetch(fetched + path, init))]);
      expect({ path, method: init.method, ...a }).toEqual({ path, method: init.method, ...b });
    }

    const create = (base: string, orderId: string) =>
      fetch(`${base}/payin/payments`, { method: 'POST', headers: json, body: JSON.stringify({ orderId, method: 'upi' }) });
    const [one, two] = await Promise.all([create(plain, 'A-1'), create(fetched, 'A-2')]);
    const [created, alsoCreated] = [await seen(one.clone()), await seen(two.clone())];
    expect({ ...created, body: Object.keys(JSON.parse(created.body).payment) }).toEqual({
      ...alsoCreated,
      body: Object.keys(JSON.parse(alsoCreated.body).payment),
    });
    expect(created.status).toBe(201);
    const { payment, token } = (await one.json()) as { payment: { id: string }; token: string };
    const status = (base: string) =>
      fetch(`${base}/payin/status`, { method: 'POST', headers: json, body: JSON.stringify({ paymentId: payment.id, token }) });
    const [viaPlain, viaFetch] = await Promise.all([status(plain), status(fetched)]);
    expect(await viaPlain.text()).toBe(await viaFetch.text());
    expect(viaPlain.headers.get('access-control-allow-origin')).toBe(SHOP);
  });

  it("answers a final payment's status in the turn its body arrived, with the Fetch handler's bytes", async () => {
    const clock = new ManualClock(Date.parse('2026-11-23T10:00:00Z'));
    const sandbox = createSandbox({ requisitesDelayMs: 0, clock });
    const proxy = proxyWith({ clock, fetch: async (input, init) => sandbox(new Request(input, init)) });
    // Whether the plain form handed back a promise: the node adapter writes a plain answer without one.
    const waited: boolean[] = [];
    const plain = await served(
      Object.assign((request: Request) => proxy(request), {
        [PLAIN_HANDLER]: (request: PlainRequest, address: string | undefined) => {
          // The proxy's key is the same Symbol.for as the adapter's; its type is the proxy's own.
          const answer = (proxy as unknown as Record<typeof PLAIN_HANDLER, PlainHandler>)[PLAIN_HANDLER](request, address);
          waited.push(answer instanceof Promise);
          return answer;
        },
      }),
    );
    const fetched = await served((request) => proxy(request));
    const json = { 'content-type': 'application/json', origin: SHOP };
    const created = await fetch(`${plain}/payin/payments`, { method: 'POST', headers: json, body: '{"orderId":"F-1","method":"upi"}' });
    const { payment, token } = (await created.json()) as { payment: { id: string }; token: string };
    sandbox.act(payment.id, 'pay');
    await clock.advance(5_000);
    const status = (base: string) =>
      fetch(`${base}/payin/status`, { method: 'POST', headers: json, body: JSON.stringify({ paymentId: payment.id, token }) });
    const first = await (await status(plain)).json();
    expect(first.payment).toMatchObject({ state: 'finished', final: true });
    waited.length = 0;
    const [fromStore, viaFetch] = [await seen(await status(plain)), await seen(await status(fetched))];
    expect(fromStore).toEqual(viaFetch);
    expect(JSON.parse(fromStore.body).payment).toEqual(first.payment);
    expect(waited).toEqual([false]);
  });

  it("hands the shop's resolveOrder and clientId a Fetch Request with the shopper's headers and body", async () => {
    const orders: { isRequest: boolean; cookie: string | null; body: unknown }[] = [];
    const clients: { isRequest: boolean; forwarded: string | null }[] = [];
    const proxy = proxyWith({
      resolveOrder: async (_orderId, _method, request) => {
        orders.push({ isRequest: request instanceof Request, cookie: request.headers.get('cookie'), body: await request.json() });
        return { amount: '10.00', currency: 'INR' };
      },
      clientId: (request) => {
        clients.push({ isRequest: request instanceof Request, forwarded: request.headers.get('x-forwarded-for') });
        return 'one-client';
      },
    });
    const url = await served(proxy);
    const answer = await fetch(`${url}/payin/payments`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', cookie: 'cart=7', 'x-forwarded-for': '203.0.113.9' },
      body: '{"orderId":"B-1","method":"upi"}',
    });
    expect(answer.status).toBe(201);
    expect(orders).toEqual([{ isRequest: true, cookie: 'cart=7', body: { orderId: 'B-1', method: 'upi' } }]);
    expect(clients).toEqual([{ isRequest: true, forwarded: '203.0.113.9' }]);
  });

  it('reads headers as Fetch does, and the body whole whether it came small, large or chunked', async () => {
    const url = await served(
      plainOnly(async (request: PlainRequest) => {
        const bytes = await readBody(request, 1024 * 1024);
        const info = {
          method: request.method,
          url: request.url,
          repeated: request.headers.get('X-Repeated'),
          absent: request.headers.get('x-absent'),
          peer: remoteAddressOf(request),
          size: bytes.byteLength,
          last: bytes.at(-1),
          usedAfter: request.bodyUsed,
        };
        return { status: 200, headers: { 'content-type': 'application/json' }, body: JSON.stringify(info) };
      }),
    );
    // node:http, not fetch: fetch folds a repeated header into one line, and this needs two.
    const ask = (chunks: string[], length: boolean) =>
      new Promise<unknown>((resolve, reject) => {
        const size = chunks.reduce((n, c) => n + c.length, 0);
        const headers: OutgoingHttpHeaders = { 'x-repeated': ['a', 'b'], ...(length ? { 'content-length': size } : {}) };
        const req = httpRequest(`${url}/p?q=1`, { method: 'POST', headers }, (res) => {
          let text = '';
          res.setEncoding('utf8').on('data', (chunk) => (text += chunk));
          res.on('end', () => resolve(JSON.parse(text)));
        });
        req.on('error', reject);
        for (const chunk of chunks) req.write(chunk);
        req.end();
      });
    const expected = (size: number) => ({
      method: 'POST',
      url: `${url}/p?q=1`,
      repeated: 'a, b',
      absent: null,
      peer: '127.0.0.1',
      size,
      last: 0x7a,
      usedAfter: true,
    });
    expect(await ask(['xyz'], true)).toEqual(expected(3));
    expect(await ask(['z'.repeat(200 * 1024)], true)).toEqual(expected(200 * 1024));
    expect(await ask(['zz', 'zz', 'zz'], false)).toEqual(expected(6));
  });

  it('aborts the request when the client goes away, and answers 400 to a target that is no URL', async () => {
    let arrived: () => void = () => {};
    const inHandler = new Promise<void>((resolve) => (arrived = resolve));
    let aborted: (value: boolean) => void = () => {};
    const sawAbort = new Promise<boolean>((resolve) => (aborted = resolve));
    // A handler that first looks at the signal after the client has gone finds it aborted all the same.
    let lateArrived: () => void = () => {};
    const lateInHandler = new Promise<void>((resolve) => (lateArrived = resolve));
    let clientGone: () => void = () => {};
    const gone = new Promise<void>((resolve) => (clientGone = resolve));
    let lateAborted: (value: boolean) => void = () => {};
    const sawLateAbort = new Promise<boolean>((resolve) => (lateAborted = resolve));
    const url = new URL(
      await served(
        plainOnly(async (request) => {
          const path = new URL(request.url).pathname;
          if (path === '/wait') {
            arrived();
            await new Promise<void>((resolve) => request.signal.addEventListener('abort', () => resolve(), { once: true }));
            aborted(request.signal.aborted);
          } else if (path === '/late') {
            lateArrived();
            await gone;
            lateAborted(request.signal.aborted);
          }
          return { status: 200, headers: {}, body: 'ok' };
        }),
      ),
    );
    const sockets: Socket[] = [];
    running.at(-1)!.server.on('connection', (socket) => sockets.push(socket));
    const raw = (text: string) =>
      new Promise<string>((resolve, reject) => {
        const socket = connect(Number(url.port), url.hostname, () => socket.write(text));
        let got = '';
        socket.on('data', (chunk) => {
          got += chunk;
          if (got.includes('\r\n\r\n')) {
            socket.destroy();
            resolve(got);
          }
        });
        socket.on('error', reject);
      });
    expect(await raw('GET // HTTP/1.1\r\nHost: [::1\r\n\r\n')).toMatch(/^HTTP\/1\.1 400/);

    const waiting = connect(Number(url.port), url.hostname, () => waiting.write('GET /wait HTTP/1.1\r\nHost: x\r\n\r\n'));
    await inHandler;
    waiting.destroy();
    expect(await sawAbort).toBe(true);

    const late = connect(Number(url.port), url.hostname, () => late.write('GET /late HTTP/1.1\r\nHost: x\r\n\r\n'));
    await lateInHandler;
    sockets.at(-1)!.once('close', () => clientGone());
    late.destroy();
    expect(await sawLateAbort).toBe(true);
  });
});
