import { afterEach, describe, expect, it } from 'vitest';
import { createServer, request as httpRequest, type ServerResponse } from 'node:http';
import { serve, type RunningServer } from '../../src/server/serve.js';
import { remoteAddressOf, toNodeListener } from '../../src/server/node-listener.js';
import { readBody } from '../../src/shared/body.js';

let running: RunningServer | undefined;
afterEach(async () => {
  await running?.close();
  running = undefined;
});

describe('toNodeListener over a real socket', () => {
  it('passes the body through byte for byte, spaces and key order intact', async () => {
    const raw = '{"b": 1,  "a": "Иван"}\n';
    running = await serve(async (req) => new Response(await readBody(req, 1024)));
    const answer = await fetch(`${running.url}/echo`, { method: 'POST', body: raw, headers: { 'content-type': 'application/json' } });
    expect(await answer.text()).toBe(raw);
  });

  it('answers 405 to an HTTP TRACE, which the Fetch API cannot represent, without calling the handler', async () => {
    let called = false;
    const errors: unknown[] = [];
    running = await serve(() => {
      called = true;
      return new Response('ok');
    });
    const url = new URL(running.url);
    const status = await new Promise<number>((resolve, reject) => {
      const req = httpRequest({ host: url.hostname, port: url.port, method: 'TRACE', path: '/payin/status' }, (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      });
      req.on('error', reject);
      req.end();
    });
    expect({ status, called, errors }).toEqual({ status: 405, called: false, errors: [] });
  });

  it('gives the handler the method, path, query, headers and peer address', async () => {
    running = await serve((req) =>
      Response.json({
        method: req.method,
        url: new URL(req.url).pathname + new URL(req.url).search,
        h: req.headers.get('x-test'),
        peer: remoteAddressOf(req),
      }),
    );
    const answer = await fetch(`${running.url}/a/b?c=1`, { headers: { 'x-test': 'yes' } });
    expect(await answer.json()).toEqual({ method: 'GET', url: '/a/b?c=1', h: 'yes', peer: '127.0.0.1' });
  });

  it('writes status, headers and several cookies', async () => {
    running = await serve(() => {
      const headers = new Headers({ 'x-a': '1' });
      headers.append('set-cookie', 'a=1');
      headers.append('set-cookie', 'b=2');
      return new Response('created', { status: 201, headers });
    });
    const answer = await fetch(running.url);
    expect(answer.status).toBe(201);
    expect(answer.statusText).toBe('Created');
    expect(answer.headers.get('x-a')).toBe('1');
    expect(answer.headers.getSetCookie()).toEqual(['a=1', 'b=2']);
  });

  it('streams a body as it is produced and aborts the request signal when the client leaves', async () => {
    let aborted!: () => void;
    const abortSeen = new Promise<void>((resolve) => (aborted = resolve));
    running = await serve((req) => {
      req.signal.addEventListener('abort', () => aborted());
      const stream = new ReadableStream<Uint8Array>({
        start(controller) {
          controller.enqueue(new TextEncoder().encode('event: ping\n\n'));
        },
      });
      return new Response(stream, { headers: { 'content-type': 'text/event-stream' } });
    });
    const first = await new Promise<string>((resolve, reject) => {
      const req = httpRequest(`${running!.url}/events`, (res) => {
        res.once('data', (chunk: Buffer) => {
          resolve(chunk.toString());
          req.destroy();
        });
      });
      req.on('error', () => {});
      req.setTimeout(5000, () => reject(new Error('no first chunk within 5 s')));
      req.end();
    });
    expect(first).toBe('event: ping\n\n');
    await expect(Promise.race([abortSeen.then(() => 'aborted'), new Promise((r) => setTimeout(() => r('timeout'), 5000))])).resolves.toBe(
      'aborted',
    );
  });

  it('does not pile up close listeners on an answer that waits for its client many times', async () => {
    // Each wait for 'drain' listened for 'close' too and left that listener behind once drained: a long download
    // to a slow reader piled them up on the answer (Node's MaxListenersExceededWarning past 10).
    const CHUNKS = 256;
    let res: ServerResponse | undefined;
    let most = 0;
    const listener = toNodeListener(() => {
      let sent = 0;
      const body = new ReadableStream<Uint8Array>({
        pull(controller) {
          most = Math.max(most, res?.listenerCount('close') ?? 0);
          if (sent++ === CHUNKS) controller.close();
          else controller.enqueue(new Uint8Array(64 * 1024));
        },
      });
      return new Response(body);
    });
    const server = createServer((req, answer) => {
      res = answer;
      void listener(req, answer);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = server.address() as { port: number };
      const answer = await fetch(`http://127.0.0.1:${port}/download`);
      expect((await answer.arrayBuffer()).byteLength).toBe(CHUNKS * 64 * 1024);
      expect(most).toBeLessThanOrEqual(3);
    } finally {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });

  it('answers 500 without details when the handler throws, and reports the error', async () => {
    const errors: unknown[] = [];
    running = await serve(
      () => {
        throw new Error('secret detail');
      },
      { onError: (e) => errors.push(e) },
    );
    const answer = await fetch(running.url);
    expect(answer.status).toBe(500);
    expect(await answer.text()).not.toContain('secret detail');
    expect(errors).toHaveLength(1);
  });
});

describe('serve() against slow clients', () => {
  it('closes a connection whose headers never finish, and refuses connections past the cap', async () => {
    const { createConnection } = await import('node:net');
    running = await serve(() => new Response('ok'), { headersTimeoutMs: 300, requestTimeoutMs: 600, maxConnections: 5 });
    const port = running.port;
    const open = (): Promise<import('node:net').Socket> =>
      new Promise((resolve, reject) => {
        const socket = createConnection({ host: '127.0.0.1', port }, () => resolve(socket));
        socket.once('error', reject);
      });
    // A slowloris: a request line and one header, then nothing.
    const slow = await open();
    slow.write('GET / HTTP/1.1\r\nHost: x\r\n');
    const closed = await new Promise<boolean>((resolve) => {
      const timer = setTimeout(() => resolve(false), 10_000);
      slow.once('close', () => {
        clearTimeout(timer);
        resolve(true);
      });
      slow.resume();
    });
    expect(closed).toBe(true);
    const held = await Promise.all(Array.from({ length: 5 }, open));
    const extra = await open();
    const refused = await new Promise<boolean>((resolve) => {
      const timer = setTimeout(() => resolve(false), 5_000);
      extra.once('close', () => {
        clearTimeout(timer);
        resolve(true);
      });
      extra.resume();
    });
    expect(refused).toBe(true);
    for (const socket of held) socket.destroy();
  });

  it('closes at once a connection past maxConnectionsPerClient from one address, and serves another address meanwhile', async () => {
    const { createConnection } = await import('node:net');
    running = await serve(() => new Response('ok'), { maxConnectionsPerClient: 3 });
    const port = running.port;
    const open = (localAddress: string) =>
      new Promise<{ socket: import('node:net').Socket; closed: Promise<void> }>((resolve) => {
        const socket = createConnection({ host: '127.0.0.1', port, localAddress });
        socket.on('error', () => {});
        const closed = new Promise<void>((done) => socket.once('close', () => done()));
        socket.resume();
        socket.once('connect', () => resolve({ socket, closed }));
      });
    const held = [await open('127.0.0.1'), await open('127.0.0.1'), await open('127.0.0.1')];
    const extra = await open('127.0.0.1');
    // At once: the headers timeout (10 s) would close it too, later.
    const closedAtOnce = await Promise.race([extra.closed.then(() => true), new Promise((resolve) => setTimeout(resolve, 2_000, false))]);
    expect(closedAtOnce).toBe(true);
    const other = await new Promise<number>((resolve, reject) => {
      const req = httpRequest({ host: '127.0.0.1', port, localAddress: '127.0.0.2', agent: false }, (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      });
      req.on('error', reject);
      req.end();
    });
    expect(other).toBe(200);
    for (const { socket } of held) socket.destroy();
  });
});
