/**
 * A shop backend whose check of the signature fails answers 401 or 403: its webhook secret is not the proxy's (a
 * copy with a character lost, the old one after a rotation), or its clock is more than 5 minutes from the proxy's,
 * which the helpers' replay window turns away. The log said only 'answered HTTP 401' on every retry and every
 * checkout; it now says what such an answer most likely means and what to compare.
 */
import { createServer, type Server } from 'node:http';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PaymentView } from '../../src/shared/payment-view.js';
import { Metrics } from '../../src/standalone/metrics.js';
import { resolveOrderVia, webhookDelivery } from '../../src/standalone/shop-backend.js';
import { createSignedPoster } from '../../src/standalone/signed-post.js';

const PROXY_SECRET = `whsec_${Buffer.from('the secret the proxy was given').toString('base64')}`;
const SHOP_SECRET = `whsec_${Buffer.from('the secret the shop kept, another').toString('base64')}`;

let backend: Server;
let base = '';

beforeAll(async () => {
  const verifier = new Webhook(SHOP_SECRET);
  backend = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk) => (body += chunk));
    req.on('end', () => {
      if (req.url === '/staging') return void res.writeHead(401, { 'www-authenticate': 'Basic realm="staging"' }).end();
      try {
        verifier.verify(body, req.headers as Record<string, string>);
      } catch {
        return void res.writeHead(req.url === '/price' ? 403 : 401).end('bad signature');
      }
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => backend.listen(0, '127.0.0.1', () => resolve()));
  base = `http://127.0.0.1:${(backend.address() as { port: number }).port}`;
});
afterAll(() => new Promise<void>((resolve) => backend.close(() => resolve())));

describe('a shop backend that turns the signature away', () => {
  const poster = createSignedPoster(PROXY_SECRET, { timeoutMs: 5_000, now: Date.now });
  const hint = /PAYIN_WEBHOOK_SECRET.*clock/;

  it("says in the webhook's log line to compare the secrets and the clocks", async () => {
    const log: string[] = [];
    const deliver = webhookDelivery(`${base}/webhook`, poster, new Metrics(), (line) => log.push(line));
    const paid = { id: 'p-1', orderId: 'A-1', state: 'finished', outcome: 'paid', amount: '10.00', currency: 'INR' } as PaymentView;
    await expect(deliver(paid, { source: 'callback', signal: new AbortController().signal })).rejects.toThrow(/401/);
    expect(log.join('\n')).toMatch(/answered HTTP 401/);
    expect(log.join('\n')).toMatch(hint);
  });

  it("says so in the pricing call's log line too", async () => {
    const log: string[] = [];
    const resolve = resolveOrderVia({ kind: 'url', url: `${base}/price` }, poster, Date.now, (line) => log.push(line));
    await expect(resolve('A-2', 'upi', new Request('http://127.0.0.1/payin/payments'), {})).rejects.toThrow();
    expect(log.join('\n')).toMatch(/answered HTTP 403/);
    expect(log.join('\n')).toMatch(hint);
  });

  it('says instead, when the web server in front asks for a login, to write its user and password into the URL', async () => {
    const log: string[] = [];
    const deliver = webhookDelivery(`${base}/staging`, poster, new Metrics(), (line) => log.push(line));
    const paid = { id: 'p-2', orderId: 'A-3', state: 'finished', outcome: 'paid', amount: '10.00', currency: 'INR' } as PaymentView;
    await expect(deliver(paid, { source: 'callback', signal: new AbortController().signal })).rejects.toThrow(/401/);
    expect(log.join('\n')).toMatch(/asks for a login: write its user and password into the URL/);
    expect(log.join('\n')).not.toMatch(hint);
  });
});
