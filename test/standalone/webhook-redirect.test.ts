/**
 * A shop's webhook endpoint that redirects (an http:// address that the web server sends on to https://, a moved
 * path) must not count as delivered. fetch follows a 301 or 302 by sending a GET without the body, and a page that
 * answers that GET with 200 took the "paid" of an order it never heard of. A redirect is an answer that is not
 * 2xx: the webhook is retried and the log says where the address points, so that the operator can mend it.
 */
import { createServer, type Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Metrics } from '../../src/standalone/metrics.js';
import { webhookDelivery } from '../../src/standalone/shop-backend.js';
import { createSignedPoster } from '../../src/standalone/signed-post.js';
import type { PaymentView } from '../../src/shared/payment-view.js';

const SECRET = `whsec_${Buffer.from('sixteen bytes or more').toString('base64')}`;
let server: Server;
let base = '';
const seen: string[] = [];

beforeAll(async () => {
  server = createServer((req, res) => {
    seen.push(`${req.method} ${req.url}`);
    req.resume();
    if (req.method === 'POST' && req.url === '/webhook') return void res.writeHead(301, { location: '/moved/webhook' }).end();
    res.writeHead(200, { 'content-type': 'text/html' }).end('<html>welcome</html>');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  base = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

const paid = {
  id: 'p-1',
  orderId: 'A-1',
  state: 'finished',
  outcome: 'paid',
  final: true,
  amount: '10.00',
  currency: 'INR',
} as PaymentView;

describe('a webhook endpoint that redirects', () => {
  it('is not counted as delivered: it fails, is retried, and the log names the redirect', async () => {
    const log: string[] = [];
    const metrics = new Metrics();
    const poster = createSignedPoster(SECRET, { timeoutMs: 5_000, now: Date.now });
    const deliver = webhookDelivery(`${base}/webhook`, poster, metrics, (line) => log.push(line));
    await expect(deliver(paid, { source: 'callback', signal: new AbortController().signal })).rejects.toThrow(/301/);
    expect(seen).toEqual(['POST /webhook']);
    expect(log.join('\n')).toMatch(/redirect.*\/moved\/webhook/);
    expect(metrics.render()).toMatch(/payin_webhook_deliveries_total 0/);
  });
});
