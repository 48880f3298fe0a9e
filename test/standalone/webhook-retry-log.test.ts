/**
 * The proxy retries a webhook the shop does not take every 5 minutes at most, for hours if the shop is down. The
 * server's line says why each failed (the status, what the shop's answer suggests), and said it on every retry:
 * 12 lines an hour for every payment waiting. Now the 1st, 2nd, 4th, 8th... failure of a webhook is said.
 */
import { describe, expect, it } from 'vitest';
import { Metrics } from '../../src/standalone/metrics.js';
import { webhookDelivery } from '../../src/standalone/shop-backend.js';
import type { SignedPoster } from '../../src/standalone/signed-post.js';
import type { PaymentView } from '../../src/shared/payment-view.js';

describe("the standalone server's log of a webhook the shop keeps refusing", () => {
  it('says its 1st, 2nd, 4th, 8th... failure, not each, and forgets the count once the shop takes it', async () => {
    let answer = 500;
    const poster: SignedPoster = { post: async () => new Response('down for maintenance', { status: answer }) };
    const log: string[] = [];
    const metrics = new Metrics();
    const deliver = webhookDelivery('http://127.0.0.1:9/webhook', poster, metrics, (line) => log.push(line));
    const paid = { id: 'p-1', orderId: 'A-1', state: 'finished', outcome: 'paid', amount: '10.00', currency: 'INR' } as PaymentView;
    const info = { source: 'outbox' as const, signal: new AbortController().signal };
    for (let i = 0; i < 40; i++) await expect(deliver(paid, info)).rejects.toThrow(/HTTP 500/);
    expect(log.map((line) => /failure (\d+)/.exec(line)?.[1])).toEqual(['1', '2', '4', '8', '16', '32']);
    expect(log[0]).toMatch(/^webhook msg_p-1_finished answered HTTP 500.*; the proxy retries with backoff/);
    expect(metrics.render({ ok: true, store: 'ok' })).toMatch(/payin_webhook_failures_total 40/);

    answer = 200;
    await deliver(paid, info);
    answer = 503;
    await expect(deliver(paid, info)).rejects.toThrow(/HTTP 503/);
    expect(log.at(-1)).toMatch(/answered HTTP 503.*failure 1\b/);
  });
});
