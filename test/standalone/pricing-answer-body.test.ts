/**
 * The body of the shop's pricing answer, over real HTTP. It is read only as far as a price can go: it was read whole,
 * however long, so a URL that serves a download, or an endpoint that echoes a cart back, held the proxy reading (and
 * keeping in memory) until the call's time limit, and a long answer that carried a price was then believed. And a
 * body cut short by that limit is said to be, not taken for a body without a price.
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
    if (req.url === '/slow') return void slowly(res);
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
/** Headers at once, then a price that does not finish before the call's limit: a blank a tenth of a second, 100 at most. */
async function slowly(res: ServerResponse): Promise<void> {
  res.writeHead(200, { 'content-type': 'application/json' });
  res.write('{"amount":"499.00",');
  for (let i = 0; i < 100 && !res.destroyed; i++) {
    res.write(' ');
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  if (!res.destroyed) res.end('"currency":"INR"}');
}

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

describe('a pricing endpoint whose answer does not finish in time', () => {
  it("is a failed call (502) at the call's limit, logged as a body cut short rather than one without a price", async () => {
    // Logged as 'answered HTTP 200 without {amount, currency}': the shop looked for a fault in its JSON.
    const log: string[] = [];
    const poster = createSignedPoster(SECRET, { timeoutMs: 500, now: Date.now });
    const resolve = resolveOrderVia({ kind: 'url', url: `${base}/slow` }, poster, Date.now, (line) => log.push(line));
    const asked = Promise.resolve(resolve('ORD-SLOW', 'upi', new Request('http://127.0.0.1/payin/payments'), {}));
    expect(await asked.catch((caught: unknown) => caught)).toBeInstanceOf(ProxyError);
    expect(log.join('\n')).toMatch(/pricing call for ORD-SLOW answered HTTP 200, but its body did not arrive whole \(.*timeout/);
    expect(log.join('\n')).not.toMatch(/without \{amount, currency\}/);
  });
});
