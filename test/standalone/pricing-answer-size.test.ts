/**
 * The shop's pricing endpoint is read only as far as a price can go. Its answer was read whole, however long: a URL
 * that serves a download, or an endpoint that echoes a cart back, held the proxy reading (and keeping in memory)
 * until the call's time limit, and a long answer that carried a price was then believed.
 */
import { createServer, type Server, type ServerResponse } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ProxyError } from '../../src/proxy/http/errors.js';
import { resolveOrderVia } from '../../src/standalone/shop-backend.js';
import { createSignedPoster } from '../../src/standalone/signed-post.js';

const SECRET = `whsec_${Buffer.from('the secret of a shop with a long answer').toString('base64')}`;
/** What the endpoint would send at most: a price, then this much padding inside one of its fields. */
const PADDING_BYTES = 32 * 1024 * 1024;

let backend: Server;
let base = '';
let written = 0;
let finished = false;
let stopped = false;

beforeAll(async () => {
  backend = createServer((req, res) => {
    req.resume();
    req.on('end', async () => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write('{"amount":"499.00","currency":"INR","cart":"');
      const chunk = Buffer.alloc(64 * 1024, 'x');
      // Bounded by PADDING_BYTES; it stops early once the proxy hangs up.
      while (written < PADDING_BYTES && !res.destroyed) {
        written += chunk.length;
        if (!res.write(chunk)) await drainedOrClosed(res);
      }
      if (!res.destroyed) {
        finished = true;
        res.end('"}');
      }
      stopped = true;
    });
  });
  await new Promise<void>((resolve) => backend.listen(0, '127.0.0.1', () => resolve()));
  base = `http://127.0.0.1:${(backend.address() as { port: number }).port}`;
});
function drainedOrClosed(res: ServerResponse): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      res.off('drain', done);
      res.off('close', done);
      resolve();
    };
    res.on('drain', done);
    res.on('close', done);
  });
}

afterAll(() => new Promise<void>((resolve) => backend.close(() => resolve())));

describe('a pricing endpoint that answers at great length', () => {
  it('is a failed call (502) once its answer passes 64 KiB, and the proxy stops reading it there', async () => {
    const log: string[] = [];
    const poster = createSignedPoster(SECRET, { timeoutMs: 10_000, now: Date.now });
    const resolve = resolveOrderVia({ kind: 'url', url: `${base}/price` }, poster, Date.now, (line) => log.push(line));
    const asked = Promise.resolve(resolve('ORD-LONG', 'upi', new Request('http://127.0.0.1/payin/payments'), {}));
    const error = await asked.catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ProxyError);
    expect((error as ProxyError).code).toBe('upstream_error');
    expect(log.join('\n')).toMatch(/pricing call for ORD-LONG answered HTTP 200 with more than 64 KiB, not read further/);
    // The socket's buffers let some megabytes through before the hang-up is seen; never the whole answer.
    await expect.poll(() => stopped).toBe(true);
    expect(finished).toBe(false);
    expect(written).toBeLessThan(PADDING_BYTES);
  });
});
