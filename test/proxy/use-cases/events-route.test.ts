import { describe, expect, it } from 'vitest';
import { encodedEvent, MAX_UNREAD_BYTES, SseWriter } from '../../../src/shared/event-stream.js';
import { setup, until } from '../harness.js';
import { SseReader } from '../sse-reader.js';

function openEvents(t: ReturnType<typeof setup>, paymentId: string, token: string, init: RequestInit = {}) {
  const url = `http://shop.test/payin/events?paymentId=${encodeURIComponent(paymentId)}&token=${encodeURIComponent(token)}`;
  return t.proxy(new Request(url, init));
}

describe('GET /payin/events', () => {
  it('sends the current state at once, then each change with a growing id, and closes after the final one', async () => {
    const t = setup();
    const { body } = await t.create();
    const response = await openEvents(t, body.payment.id, body.token);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/event-stream/);
    const events = new SseReader(response);
    const first = await events.nextEvent();
    expect(first?.event).toBe('payment');
    expect(JSON.parse(first!.data!)).toMatchObject({ id: body.payment.id, state: 'pending' });

    await t.callback({ ...t.service.payments.get(body.payment.id)!, state: 'in_check' });
    const second = await events.nextEvent();
    expect(JSON.parse(second!.data!).state).toBe('in_check');
    expect(Number(second!.id)).toBeGreaterThan(Number(first!.id));

    t.service.set(body.payment.id, { state: 'finished', status: true });
    await t.callback({ ...t.service.payments.get(body.payment.id)! });
    const third = await events.nextEvent();
    expect(JSON.parse(third!.data!)).toMatchObject({ outcome: 'paid', final: true });
    expect(await events.next()).toBeUndefined();
    expect(t.store.subscriptionCount).toBe(0);
  });

  it('is fed by status answers as well as callbacks', async () => {
    const t = setup();
    const { body } = await t.create();
    const events = new SseReader(await openEvents(t, body.payment.id, body.token));
    await events.nextEvent();
    t.service.set(body.payment.id, { state: 'expired' });
    await t.clock.advance(5_000);
    await t.status(body.payment.id, body.token);
    expect(JSON.parse((await events.nextEvent())!.data!).state).toBe('expired');
    expect(await events.next()).toBeUndefined();
  });

  it('pings every 15 seconds on the clock and refreshes the payment then', async () => {
    const t = setup();
    const { body } = await t.create();
    const events = new SseReader(await openEvents(t, body.payment.id, body.token));
    await events.nextEvent();
    t.service.set(body.payment.id, { state: 'canceled' });
    await t.clock.advance(15_000);
    expect((await events.next())?.comment).toBe('ping');
    expect(JSON.parse((await events.nextEvent())!.data!).state).toBe('canceled');
  });

  it('reads nothing without the right token', async () => {
    const t = setup();
    const { body } = await t.create();
    const response = await openEvents(t, body.payment.id, 'wrong-token');
    expect(response.status).toBe(404);
    expect(await response.text()).not.toContain(body.payment.id);
  });

  it('resumes from Last-Event-ID: only newer states are sent, and 204 for a final payment already seen', async () => {
    const t = setup();
    const { body } = await t.create();
    const first = new SseReader(await openEvents(t, body.payment.id, body.token));
    const seen = await first.nextEvent();
    await first.cancel();
    const resumed = await openEvents(t, body.payment.id, body.token, { headers: { 'last-event-id': seen!.id! } });
    const reader = new SseReader(resumed);
    await t.callback({ ...t.service.payments.get(body.payment.id)!, state: 'expired' });
    const next = await reader.nextEvent();
    expect(JSON.parse(next!.data!).state).toBe('expired');
    const done = await openEvents(t, body.payment.id, body.token, { headers: { 'last-event-id': next!.id! } });
    expect(done.status).toBe(204);
  });

  it('bounds open streams per client with 429 and frees the slot when the client goes away', async () => {
    const t = setup({ limits: { streamsPerClient: 2 } });
    const { body } = await t.create();
    const controllers = [new AbortController(), new AbortController()];
    for (const c of controllers) expect((await openEvents(t, body.payment.id, body.token, { signal: c.signal })).status).toBe(200);
    const third = await openEvents(t, body.payment.id, body.token);
    expect(third.status).toBe(429);
    expect(Number(third.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(t.store.subscriptionCount).toBe(2);
    controllers[0]!.abort();
    await until(() => t.store.subscriptionCount === 1, 'the subscription to be released');
    expect((await openEvents(t, body.payment.id, body.token)).status).toBe(200);
  });
});

describe('an event stream read as a web stream (runtimes other than node:http)', () => {
  it('is dropped, not buffered for, once its reader is more than MAX_UNREAD_BYTES behind', async () => {
    let left = 0;
    const writer = new SseWriter(() => left++);
    const reader = writer.stream.getReader();
    const block = encodedEvent('fill', 1, 'x'.repeat(1024));
    writer.write(block);
    expect((await reader.read()).value).toEqual(block);
    let written = 0;
    for (; written < 1_000 && !writer.closed; written++) writer.write(block);
    expect(written * block.byteLength).toBeLessThanOrEqual(MAX_UNREAD_BYTES + block.byteLength);
    expect(left).toBe(1);
    await expect(reader.read()).rejects.toThrow(/behind/);
  });
});
