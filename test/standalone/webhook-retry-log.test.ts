/**
 * The proxy retries a webhook the shop does not take every 5 minutes at most, for hours if the shop is down. The
 * server's line says why each failed (the status, what the shop's answer suggests), and said it on every retry:
 * 12 lines an hour for every payment waiting. Now the 1st, 2nd, 4th, 8th... failure of a webhook is said.
 */
import { describe, expect, it } from 'vitest';
import { Metrics } from '../../src/standalone/metrics.js';
import { webhookDelivery } from '../../src/standalone/shop-backend.js';
import { WebhookFailures } from '../../src/standalone/webhook-failures.js';
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

  it('forgets a failing state that a later one replaced, so a long run of such payments leaves nothing behind', async () => {
    // The shop refuses every pending webhook and takes every finished one: the outbox commits a pending that was
    // replaced without calling the webhook again, so nothing but the finished one's success can end its count.
    const poster: SignedPoster = { post: async (_url, id) => new Response('', { status: id.endsWith('_pending') ? 500 : 200 }) };
    const log: string[] = [];
    const failures = new WebhookFailures();
    const deliver = webhookDelivery('http://127.0.0.1:9/webhook', poster, new Metrics(), (line) => log.push(line), failures);
    const info = { source: 'outbox' as const, signal: new AbortController().signal };
    for (let i = 0; i < 1000; i++) {
      const payment = { id: `p-${i}`, orderId: `A-${i}`, amount: '10.00', currency: 'INR' } as PaymentView;
      await expect(deliver({ ...payment, state: 'pending', outcome: 'waiting' }, info)).rejects.toThrow(/HTTP 500/);
      await expect(deliver({ ...payment, state: 'pending', outcome: 'waiting' }, info)).rejects.toThrow(/HTTP 500/);
      expect(failures.size).toBe(1);
      await deliver({ ...payment, state: 'finished', outcome: 'paid' }, info);
    }
    expect(failures.size).toBe(0);
    expect(log.slice(0, 2).map((line) => /failure (\d+)/.exec(line)?.[1])).toEqual(['1', '2']);
  });

  it("counts each state's failures from 1, and keeps at most its bound of payments failing", async () => {
    const poster: SignedPoster = { post: async () => new Response('', { status: 503 }) };
    const log: string[] = [];
    const failures = new WebhookFailures(3);
    const deliver = webhookDelivery('http://127.0.0.1:9/webhook', poster, new Metrics(), (line) => log.push(line), failures);
    const info = { source: 'outbox' as const, signal: new AbortController().signal };
    const payment = { id: 'p-1', orderId: 'A-1', amount: '10.00', currency: 'INR' } as PaymentView;
    for (let i = 0; i < 3; i++) await expect(deliver({ ...payment, state: 'pending', outcome: 'waiting' }, info)).rejects.toThrow();
    for (let i = 0; i < 4; i++) await expect(deliver({ ...payment, state: 'finished', outcome: 'paid' }, info)).rejects.toThrow();
    expect(log.map((line) => /msg_p-1_(\w+) .*?failure (\d+)/.exec(line)?.slice(1).join(' '))).toEqual([
      'pending 1',
      'pending 2',
      'finished 1',
      'finished 2',
      'finished 4',
    ]);
    expect(failures.size).toBe(1);

    for (let i = 2; i <= 5; i++) await expect(deliver({ ...payment, id: `p-${i}`, state: 'pending' }, info)).rejects.toThrow();
    expect(failures.size).toBe(3);
    // p-1 was the oldest failing, so it went first: its count starts again, and says so at once.
    await expect(deliver({ ...payment, state: 'finished', outcome: 'paid' }, info)).rejects.toThrow();
    expect(log.at(-1)).toMatch(/msg_p-1_finished .*failure 1\b/);
  });
});
