import { afterEach, describe, expect, it } from 'vitest';
import { signBody } from '../../src/shared/hmac.js';
import { ManualClock } from '../../src/shared/manual-clock.js';
import { eventually, startLive, type Live } from './sandbox-harness.js';
import { SseReader } from './sse-reader.js';

let live: Live | undefined;
afterEach(async () => {
  await live?.close();
  live = undefined;
});

const paidCount = (l: Live, id: string) => l.updates.filter((u) => u.payment.id === id && u.payment.outcome === 'paid').length;

describe('the proxy against the real sandbox over loopback sockets', () => {
  it("creates a payment the sandbox accepts, with the shop's price and the configured callback, never the browser's", async () => {
    live = await startLive();
    const refused = await live.create('A-1', 'upi', { amount: '1.00', merchantId: 'other', callbackUri: 'http://127.0.0.1:9/x' });
    expect(refused.status).toBe(400);
    expect(refused.body.error.code).toBe('unknown_field');
    expect(live.sandbox.payments()).toHaveLength(0);

    const created = await live.create('A-1', 'upi');
    expect(created.status).toBe(201);
    const [payment] = live.sandbox.payments();
    expect(payment).toMatchObject({
      amount: '499.00',
      currency: 'INR',
      merchantId: 'demo-merchant',
      callbackUri: `${live.proxyUrl}/payin/callback`,
    });
    expect(created.body.payment).toMatchObject({ id: payment!.id, amount: '499.00', outcome: 'waiting' });
    expect(created.body.payment.expiresAt).toBe(new Date(Date.parse(payment!.expired_at)).toISOString());
    expect(JSON.stringify(created.body)).not.toMatch(/userId|commission|merchantId|"rate"/);
  });

  it('reads nothing for a paymentId without its token', async () => {
    live = await startLive();
    const { body } = await live.create('A-1');
    expect((await live.status(body.payment.id, 'guessed')).status).toBe(404);
    const events = await fetch(`${live.proxyUrl}/payin/events?paymentId=${body.payment.id}&token=guessed`);
    expect(events.status).toBe(404);
    expect((await live.status(body.payment.id, body.token)).status).toBe(200);
  });

  it('makes one upstream create for concurrent creates of one order', async () => {
    live = await startLive();
    const answers = await Promise.all(Array.from({ length: 8 }, () => live!.create('A-1', 'upi')));
    expect(live.sandbox.payments()).toHaveLength(1);
    expect(live.apiCalls.filter((c) => c.path === '/api/v2/payments')).toHaveLength(1);
    expect(new Set(answers.map((a) => a.body.payment.id)).size).toBe(1);
    expect(answers.filter((a) => a.status === 201)).toHaveLength(1);
  });

  it('makes one upstream status call for 100 concurrent status requests for one payment', async () => {
    // The proxy's clock stands still while the requests arrive, so that however slowly a loaded machine delivers
    // them, they all fall in one sharing window; it moves only to leave the window of the create's own call.
    const clock = new ManualClock(Date.now());
    live = await startLive({ clock, limits: { statusPerMinute: 1_000 }, timeouts: { coalesceMs: 1_000 } });
    const { body } = await live.create('A-1');
    await clock.advance(1_100);
    const before = live.apiCalls.filter((c) => c.path === '/api/v2/status').length;
    const answers = await Promise.all(Array.from({ length: 100 }, () => live!.status(body.payment.id, body.token)));
    expect(answers.every((a) => a.status === 200 && a.body.payment.id === body.payment.id)).toBe(true);
    expect(live.apiCalls.filter((c) => c.path === '/api/v2/status').length - before).toBe(1);
  });

  it('gives the right view from a sandbox that answers slowly, with errors, garbled or as arrays', async () => {
    live = await startLive({ timeouts: { coalesceMs: 0, statusDeadlineMs: 10_000 } });
    const { body } = await live.create('A-1', 'upi');
    live.sandbox.act(body.payment.id, 'pay', { amount: '480.00' });
    live.sandbox.setFaults({ latencyMs: 30, errorRate: 0.4, malformedRate: 0.3, statusAsArray: true });
    for (let i = 0; i < 4; i++) {
      const answer = await live.status(body.payment.id, body.token);
      expect(answer.status).toBe(200);
      // 480.00 of a 499.00 order: finished at the service, but short of the shop's price.
      expect(answer.body.payment).toMatchObject({
        id: body.payment.id,
        state: 'finished',
        outcome: 'underpaid',
        final: true,
        amount: '480.00',
        initAmount: '499.00',
      });
    }
  });

  it('survives a garbled create answer: the payment it made is found by order, not created twice', async () => {
    live = await startLive({}, { faults: { malformedRate: 1 } });
    const pending = live.create('A-1');
    await eventually(() => live!.apiCalls.some((c) => c.path === '/api/v2/status'), 5_000, 'the lookup');
    live.sandbox.setFaults({});
    const answer = await pending;
    expect(answer.status).toBe(201);
    expect(live.sandbox.payments()).toHaveLength(1);
    expect(answer.body.payment.id).toBe(live.sandbox.payments()[0]!.id);
  });

  it('announces paid exactly once with duplicate and reordered callbacks', async () => {
    live = await startLive({}, { reorderDelayMs: 100 });
    live.sandbox.setFaults({ duplicateCallbacks: true, reorderCallbacks: true });
    const { body } = await live.create('A-1');
    // The requisites come a timer tick after the create; a payment is only checked once they are there.
    await eventually(() => live!.sandbox.payment(body.payment.id)?.state === 'pending', 5_000, 'the requisites');
    live.sandbox.act(body.payment.id, 'in-check');
    live.sandbox.act(body.payment.id, 'pay');
    await eventually(() => paidCount(live!, body.payment.id) === 1, 5_000, 'paid to be announced');
    await new Promise((resolve) => setTimeout(resolve, 400)); // let held-back and duplicate callbacks land
    await live.sandbox.idle();
    expect(paidCount(live, body.payment.id)).toBe(1);
    const deliveries = live.sandbox.payment(body.payment.id)!.deliveries;
    expect(deliveries.filter((d) => d.state === 'finished').length).toBeGreaterThanOrEqual(2);
    expect(deliveries.every((d) => d.httpStatus === 200)).toBe(true);
    const final = await live.status(body.payment.id, body.token);
    expect(final.body.payment.state).toBe('finished');
  });

  it('acknowledges the callback when the shop hook throws, and the proxy announces paid on its own retry', async () => {
    let failures = 1;
    const announced: string[] = [];
    live = await startLive({
      onPaymentUpdate: (payment) => {
        if (payment.outcome !== 'paid') return;
        if (failures-- > 0) throw new Error('warehouse offline');
        announced.push(payment.id);
      },
    });
    const { body } = await live.create('A-1');
    live.sandbox.act(body.payment.id, 'pay');
    await eventually(() => announced.length === 1, 5_000, 'the proxy to retry the hook');
    await live.sandbox.idle();
    const paidDeliveries = live.sandbox.payment(body.payment.id)!.deliveries.filter((d) => d.state === 'finished');
    // The state was recorded at once: the service never had to deliver again for the shop to hear it.
    expect(paidDeliveries.map((d) => d.httpStatus)).toEqual([200]);
    expect(announced).toEqual([body.payment.id]);
  });

  it('changes nothing for a forged or altered callback', async () => {
    live = await startLive();
    const { body } = await live.create('A-1');
    const notice = JSON.stringify({ ...live.sandbox.payment(body.payment.id), state: 'finished', status: true });
    const send = (text: string, signature: string | undefined) =>
      fetch(`${live!.proxyUrl}/payin/callback`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...(signature === undefined ? {} : { signature }) },
        body: text,
      });
    expect((await send(notice, await signBody('wrong-secret', notice))).status).toBe(401);
    expect((await send(notice, '')).status).toBe(401);
    expect((await send(notice, undefined)).status).toBe(401);
    const signed = await signBody('demo-secret', notice);
    expect((await send(notice.replace('"499.00"', '"1.00"'), signed)).status).toBe(401);
    expect(live.updates.some((u) => u.payment.outcome === 'paid')).toBe(false);
    const after = await live.status(body.payment.id, body.token);
    expect(after.body.payment.outcome).toBe('waiting');
  });

  it('streams state changes as events and closes after the final one', async () => {
    live = await startLive();
    const { body } = await live.create('A-1');
    const response = await fetch(`${live.proxyUrl}/payin/events?paymentId=${body.payment.id}&token=${body.token}`);
    expect(response.headers.get('content-type')).toMatch(/^text\/event-stream/);
    const events = new SseReader(response);
    let first = JSON.parse((await events.nextEvent())!.data!);
    // The payment may still be `created` (the sandbox hands out the requisites a timer tick after the create): its
    // `pending` comes next.
    if (first.state === 'created') first = JSON.parse((await events.nextEvent(5_000))!.data!);
    expect(first.state).toBe('pending');
    live.sandbox.act(body.payment.id, 'in-check');
    expect(JSON.parse((await events.nextEvent(5_000))!.data!).state).toBe('in_check');
    live.sandbox.act(body.payment.id, 'pay');
    const paid = JSON.parse((await events.nextEvent(5_000))!.data!);
    expect(paid).toMatchObject({ outcome: 'paid', final: true });
    expect(await events.next(5_000)).toBeUndefined();
  });

  it('answers 429 with Retry-After, and 413, 415 and 405, over a real socket', async () => {
    live = await startLive({ limits: { createsPerMinute: 2 } });
    expect((await live.create('A-1')).status).toBe(201);
    expect((await live.create('A-2')).status).toBe(201);
    const limited = await fetch(`${live.proxyUrl}/payin/payments`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ orderId: 'A-3', method: 'upi' }),
    });
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    const big = await fetch(`${live.proxyUrl}/payin/status`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ paymentId: 'x'.repeat(20_000), token: 't' }),
    });
    expect(big.status).toBe(413);
    const text = await fetch(`${live.proxyUrl}/payin/status`, { method: 'POST', headers: { 'content-type': 'text/plain' }, body: '{}' });
    expect(text.status).toBe(415);
    const wrong = await fetch(`${live.proxyUrl}/payin/status`);
    expect(wrong.status).toBe(405);
    expect(wrong.headers.get('allow')).toBe('POST');
  });
});
