import { afterEach, describe, expect, it } from 'vitest';
import { connect, type Socket } from 'node:net';
import type { ServerResponse } from 'node:http';
import { serve, type RunningServer } from '../../src/server/serve.js';
import { encodedEvent, MAX_UNREAD_BYTES, SSE_HEADERS, SseWriter } from '../../src/shared/event-stream.js';
import { setup, until } from '../proxy/harness.js';
import { SseReader } from '../proxy/sse-reader.js';

let running: RunningServer | undefined;
const sockets: Socket[] = [];
afterEach(async () => {
  for (const socket of sockets.splice(0)) socket.destroy();
  await running?.close();
  running = undefined;
});

const step = (n: number) => encodedEvent('step', n, `step ${n}`);

interface Served {
  writer: SseWriter;
  /** Resolves when the writer is told that its reader went away. */
  left: Promise<void>;
  res: ServerResponse;
}

/**
 * Serves one SseWriter, which `before` may write to before the answer is returned; the handler does not watch
 * the request's signal, so only the adapter can tell the writer that the client left. Resolves with a function
 * that waits for the request and answers its writer and its ServerResponse.
 */
async function serveWriter(before: (writer: SseWriter) => void = () => {}): Promise<() => Promise<Served>> {
  let served: Omit<Served, 'res'> | undefined;
  running = await serve(() => {
    let leave!: () => void;
    const left = new Promise<void>((resolve) => (leave = resolve));
    const writer = new SseWriter(() => leave());
    before(writer);
    served = { writer, left };
    return new Response(writer.stream, { headers: SSE_HEADERS });
  });
  let res: ServerResponse | undefined;
  running.server.once('request', (_req, response: ServerResponse) => (res = response));
  return async () => {
    await until(() => served !== undefined && res !== undefined, 'a request');
    return { ...served!, res: res! };
  };
}

function within<T>(promise: Promise<T>, what: string, ms = 5_000): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(`${what} took over ${ms} ms`)), ms)));
  return Promise.race([promise, late]).finally(() => clearTimeout(timer));
}

describe('an event stream on node:http', () => {
  it('is written to the socket in order, blocks from before the answer first, and ends after close, its web stream unread', async () => {
    const first = await serveWriter((writer) => writer.write(step(1)));
    const events = new SseReader(await fetch(`${running!.url}/events`));
    const { writer } = await first();
    expect((await events.next())?.id).toBe('1');
    writer.write(step(2));
    writer.comment('ping');
    writer.write(step(3));
    writer.close();
    writer.write(step(4)); // after close: a no-op
    const rest = [await events.next(), await events.next(), await events.next(), await events.next()];
    expect(rest.map((e) => e?.id ?? e?.comment)).toEqual(['2', 'ping', '3', undefined]);
    // Read as a web stream, the body would have been locked by its reader.
    expect(writer.stream.locked).toBe(false);
  });

  it('sends the blocks and the end of a stream that was closed before it was served', async () => {
    await serveWriter((writer) => {
      writer.write(step(1));
      writer.write(step(2));
      writer.close();
    });
    const answer = await fetch(`${running!.url}/events`);
    expect(await within(answer.text(), 'the whole answer')).toBe(new TextDecoder().decode(new Uint8Array([...step(1), ...step(2)])));
  });

  it('tells the writer when the client goes away, and later writes are no-ops', async () => {
    const first = await serveWriter((writer) => writer.write(step(1)));
    const leaving = new AbortController();
    const events = new SseReader(await fetch(`${running!.url}/events`, { signal: leaving.signal }));
    expect((await events.next())?.id).toBe('1');
    const { writer, left } = await first();
    leaving.abort();
    await within(left, 'the writer hearing that its client left');
    expect(writer.closed).toBe(true);
    writer.write(step(2));
  });

  it('drops a client that stops reading before it holds more than MAX_UNREAD_BYTES of unread events for it', async () => {
    const first = await serveWriter();
    const url = new URL(running!.url);
    const socket = connect(Number(url.port), url.hostname);
    sockets.push(socket);
    socket.on('error', () => {});
    socket.write(`GET /events HTTP/1.1\r\nhost: ${url.host}\r\n\r\n`);
    // Never read: the kernel's buffers fill, then the server's would.
    socket.pause();
    const { writer, left, res } = await first();
    const big = encodedEvent('fill', 1, 'x'.repeat(16 * 1024));
    let most = 0;
    let writes = 0;
    for (; writes < 4_000 && !writer.closed; writes++) {
      writer.write(big);
      most = Math.max(most, res.writableLength);
      await new Promise((resolve) => setImmediate(resolve));
    }
    expect(writer.closed).toBe(true);
    await within(left, 'the writer letting go of the dropped client');
    expect(most).toBeLessThanOrEqual(MAX_UNREAD_BYTES + big.byteLength + 16);
    expect(res.destroyed).toBe(true);
  });
});

/** Everything the server sends on a raw socket until it closes the connection or `until` matches the text so far. */
function readAll(socket: Socket, until: (text: string) => boolean): Promise<string> {
  return within(
    new Promise<string>((resolve) => {
      let text = '';
      socket.setEncoding('latin1');
      socket.on('data', (chunk: string) => {
        text += chunk;
        if (until(text)) resolve(text);
      });
      socket.on('close', () => resolve(text));
    }),
    'the whole answer',
  );
}

function rawClient(): Socket {
  const url = new URL(running!.url);
  const socket = connect(Number(url.port), url.hostname);
  sockets.push(socket);
  socket.on('error', () => {});
  return socket;
}

describe('an event stream on node:http, byte for byte', () => {
  const block = (n: number) => new TextDecoder().decode(step(n));
  const chunk = (n: number) => `${step(n).byteLength.toString(16)}\r\n${block(n)}\r\n`;

  it('frames each block as one chunk after the head, and ends with the last chunk', async () => {
    const first = await serveWriter((writer) => writer.write(step(1)));
    const socket = rawClient();
    socket.write(`GET /events HTTP/1.1\r\nhost: x\r\n\r\n`);
    const reading = readAll(socket, (text) => text.endsWith('\r\n0\r\n\r\n'));
    const { writer } = await first();
    writer.write(step(2));
    writer.write(new Uint8Array(0)); // nothing to send: an empty chunk would end the answer
    writer.write(step(2)); // the same bytes again: the same chunk
    writer.close();
    const text = await reading;
    const [head, body] = [text.slice(0, text.indexOf('\r\n\r\n')), text.slice(text.indexOf('\r\n\r\n') + 4)];
    expect(head).toMatch(/^HTTP\/1\.1 200 OK\r\n/);
    expect(head).toMatch(/\r\ntransfer-encoding: chunked/i);
    expect(body).toBe(`${chunk(1)}${chunk(2)}${chunk(2)}0\r\n\r\n`);
  });

  it('sends the blocks unframed to an HTTP/1.0 client, and closes the connection to end', async () => {
    const first = await serveWriter((writer) => writer.write(step(1)));
    const socket = rawClient();
    socket.write(`GET /events HTTP/1.0\r\nhost: x\r\n\r\n`);
    const reading = readAll(socket, () => false);
    const { writer } = await first();
    writer.write(step(2));
    writer.close();
    const text = await reading;
    expect(text).toMatch(/^HTTP\/1\.1 200 OK\r\n/);
    expect(text).not.toMatch(/transfer-encoding/i);
    expect(text.slice(text.indexOf('\r\n\r\n') + 4)).toBe(`${block(1)}${block(2)}`);
  });

  it('keeps a pipelined stream behind the answer before it on the same connection', async () => {
    let writer: SseWriter | undefined;
    let answerSlow!: () => void;
    running = await serve(async (request) => {
      if (new URL(request.url).pathname === '/slow') {
        await new Promise<void>((resolve) => (answerSlow = resolve));
        return new Response('slow answer');
      }
      writer = new SseWriter(() => {});
      writer.write(step(1));
      return new Response(writer.stream, { headers: SSE_HEADERS });
    });
    const socket = rawClient();
    socket.write(`GET /slow HTTP/1.1\r\nhost: x\r\n\r\nGET /events HTTP/1.1\r\nhost: x\r\n\r\n`);
    const reading = readAll(socket, (text) => text.endsWith('\r\n0\r\n\r\n'));
    await until(() => writer !== undefined && answerSlow !== undefined, 'both requests');
    writer!.write(step(2)); // the stream's socket is still the slow answer's
    answerSlow();
    await until(() => writer!.closed || socket.bytesRead > 0, 'the slow answer');
    writer!.write(step(3));
    writer!.close();
    const text = await reading;
    const slowEnd = text.indexOf('slow answer');
    const streamHead = text.indexOf('HTTP/1.1 200 OK', 1);
    expect(slowEnd).toBeGreaterThan(0);
    expect(streamHead).toBeGreaterThan(slowEnd);
    expect(text.slice(text.indexOf('\r\n\r\n', streamHead) + 4)).toBe(`${chunk(1)}${chunk(2)}${chunk(3)}0\r\n\r\n`);
  });
});

describe("the proxy's payment stream on node:http", () => {
  function eventsUrl(paymentId: string, token: string) {
    return `${running!.url}/payin/events?paymentId=${encodeURIComponent(paymentId)}&token=${encodeURIComponent(token)}`;
  }

  it('delivers each state in order over a real socket and ends after the final one, letting go of its subscription', async () => {
    const t = setup();
    running = await serve((request) => t.proxy(request));
    const { body } = await t.create();
    const events = new SseReader(await fetch(eventsUrl(body.payment.id, body.token)));
    expect(JSON.parse((await events.nextEvent())!.data!).state).toBe('pending');
    await t.callback({ ...t.service.payments.get(body.payment.id)!, state: 'in_check' });
    t.service.set(body.payment.id, { state: 'finished', status: true });
    await t.callback({ ...t.service.payments.get(body.payment.id)! });
    const second = await events.nextEvent();
    const third = await events.nextEvent();
    expect(JSON.parse(second!.data!).state).toBe('in_check');
    expect(JSON.parse(third!.data!)).toMatchObject({ outcome: 'paid', final: true });
    expect(Number(third!.id)).toBeGreaterThan(Number(second!.id));
    expect(await events.next()).toBeUndefined();
    expect(t.store.subscriptionCount).toBe(0);
  });

  it("gives back the client's slot and the subscription when the client goes away", async () => {
    const t = setup({ limits: { streamsPerClient: 1 } });
    running = await serve((request) => t.proxy(request));
    const { body } = await t.create();
    const leaving = new AbortController();
    const events = new SseReader(await fetch(eventsUrl(body.payment.id, body.token), { signal: leaving.signal }));
    await events.nextEvent();
    expect((await fetch(eventsUrl(body.payment.id, body.token))).status).toBe(429);
    leaving.abort();
    await until(() => t.store.subscriptionCount === 0, 'the subscription to be released');
    const again = await fetch(eventsUrl(body.payment.id, body.token), { signal: AbortSignal.timeout(5_000) });
    expect(again.status).toBe(200);
    await again.body?.cancel();
  });
});
