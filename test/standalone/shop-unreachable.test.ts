/**
 * When the shop's backend cannot be reached, the log says why: fetch fails with the bare words "fetch failed" and
 * keeps the reason (a refused connection, a name that does not resolve, a certificate Node does not trust, such as a
 * staging site's own or one served without its intermediate) in its cause, which the log line left out, so an
 * operator read "could not reach https://shop.example: fetch failed" on every webhook and had nothing to mend.
 */
import { createServer } from 'node:net';
import { describe, expect, it } from 'vitest';
import { Metrics } from '../../src/standalone/metrics.js';
import { resolveOrderVia, webhookDelivery } from '../../src/standalone/shop-backend.js';
import { createSignedPoster } from '../../src/standalone/signed-post.js';
import type { PaymentView } from '../../src/shared/payment-view.js';

const SECRET = `whsec_${Buffer.from('sixteen bytes or more').toString('base64')}`;

/** A loopback address where nothing listens: each connection to it is refused. */
async function refusingUrl(path: string): Promise<string> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return `http://127.0.0.1:${port}${path}`;
}

describe('a shop backend that cannot be reached', () => {
  const poster = createSignedPoster(SECRET, { timeoutMs: 5_000, now: Date.now });

  it("is named in the webhook's log line with the reason: the connection was refused", async () => {
    const log: string[] = [];
    const deliver = webhookDelivery(await refusingUrl('/webhook'), poster, new Metrics(), (line) => log.push(line));
    const paid = { id: 'p-1', orderId: 'A-1', state: 'finished', outcome: 'paid', amount: '10.00', currency: 'INR' } as PaymentView;
    await expect(deliver(paid, { source: 'callback', signal: new AbortController().signal })).rejects.toThrow();
    expect(log.join('\n')).toMatch(/webhook msg_p-1_finished failed \(could not reach http:\/\/127\.0\.0\.1:\d+: .*ECONNREFUSED/);
  });

  it("is named in the pricing call's log line with the reason too", async () => {
    const log: string[] = [];
    const resolve = resolveOrderVia({ kind: 'url', url: await refusingUrl('/price') }, poster, Date.now, (line) => log.push(line));
    await expect(resolve('A-2', 'upi', new Request('http://127.0.0.1/payin/payments'), {})).rejects.toThrow();
    expect(log.join('\n')).toMatch(/pricing call failed: could not reach .*ECONNREFUSED/);
  });
});
