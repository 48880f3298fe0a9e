/**
 * A framework that puts a slash at the end of every path: Next.js with `trailingSlash: true` answers
 * /payin/payments with a 308 to /payin/payments/, which the browser's fetch and EventSource follow, and the
 * service's callbacks then go to the callback URL the shop writes with its slash. Measured with Next 16.4: every
 * route of the proxy answered 404 'no such route' and the checkout never started. The routes are the same with one
 * slash after them.
 */
import { describe, expect, it } from 'vitest';
import { signBody } from '../../../src/shared/hmac.js';
import { SECRET } from '../fake-service.js';
import { ORIGIN, setup } from '../harness.js';
import { SseReader } from '../sse-reader.js';

describe('routes with a trailing slash', () => {
  it('takes a create, a status call, the event stream and a callback', async () => {
    const t = setup();
    const created = await t.post('/payments/', { orderId: 'A-1', method: 'upi' });
    expect(created.status).toBe(201);
    const { payment, token } = (await created.json()) as { payment: { id: string }; token: string };
    expect((await t.post('/status/', { paymentId: payment.id, token })).status).toBe(200);

    const stream = await t.proxy(new Request(`${ORIGIN}/payin/events/?paymentId=${payment.id}&token=${token}`));
    expect(stream.status).toBe(200);
    const events = new SseReader(stream);
    expect((await events.nextEvent())?.event).toBe('payment');

    t.service.set(payment.id, { state: 'finished', status: true });
    const body = JSON.stringify(t.service.payments.get(payment.id));
    const callback = await t.proxy(
      new Request(`${ORIGIN}/payin/callback/`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', signature: await signBody(SECRET, body) },
        body,
      }),
    );
    expect(callback.status).toBe(200);
    expect(JSON.parse((await events.nextEvent())!.data!)).toMatchObject({ outcome: 'paid' });
  });

  it('still answers 404 to a path that is no route, and to two slashes', async () => {
    const t = setup();
    expect((await t.post('/payments//', { orderId: 'A-1', method: 'upi' })).status).toBe(404);
    expect((await t.proxy(new Request(`${ORIGIN}/payin/`))).status).toBe(404);
  });
});
