import { describe, expect, it } from 'vitest';
import { verifySignature } from '../../src/shared/hmac.js';
import { DEMO_MERCHANT, NO_FAULTS } from '../../src/sandbox/index.js';
import { control, until, createBody, createPayment, readRefusal, readSigned, setup, signedRequest, status } from './helpers.js';

const putFaults = (body: unknown) =>
  control('/sandbox/faults', { method: 'PUT', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });

/** Randomness that returns the given values in turn, then 0.99. */
function draws(...values: number[]) {
  return () => values.shift() ?? 0.99;
}

describe('faults', () => {
  it('are set with PUT, read with GET, validated, and cleared with {}', async () => {
    const { sandbox } = setup();
    const response = await sandbox(putFaults({ errorRate: 0.25, statusAsArray: true }));
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ ...NO_FAULTS, errorRate: 0.25, statusAsArray: true });
    expect(await (await sandbox(control('/sandbox/faults'))).json()).toMatchObject({ errorRate: 0.25 });
    const bad: [unknown, RegExp][] = [
      [{ errorRate: 1.5 }, /errorRate must be at most 1/],
      [{ malformedRate: -0.1 }, /malformedRate must be at least 0/],
      [{ latencyMs: 'slow' }, /latencyMs/],
      [{ latencyMs: 10.5 }, /latencyMs/],
      [{ duplicateCallbacks: 'yes' }, /duplicateCallbacks must be true or false/],
      [{ chaos: true }, /chaos/],
      [[], /expected object|object/i],
    ];
    for (const [body, message] of bad) {
      const refused = await sandbox(putFaults(body));
      expect(refused.status, JSON.stringify(body)).toBe(400);
      expect((await readRefusal(refused)).message).toMatch(message);
    }
    expect(sandbox.faults()).toMatchObject({ errorRate: 0.25, statusAsArray: true });
    expect(await (await sandbox(putFaults({}))).json()).toEqual(NO_FAULTS);
  });

  it('latencyMs holds each API answer back on the clock', async () => {
    const { sandbox, clock } = setup({ faults: { latencyMs: 2000 } });
    let answered = false;
    const request = await signedRequest('/api/v2/payments', createBody());
    const pending = sandbox(request).then((r) => {
      answered = true;
      return r;
    });
    await until(() => clock.pending === 1); // the request is read and waits on the clock
    await clock.advance(1999);
    expect(answered).toBe(false);
    expect(sandbox.payments()).toHaveLength(0);
    await clock.advance(1);
    const response = await pending;
    expect(response.status).toBe(200);
    expect(sandbox.payments()).toHaveLength(1);
  });

  it('errorRate refuses that share with 500 or 503 before anything happens', async () => {
    const { sandbox } = setup({ random: draws(0.1, 0.1, 0.1, 0.3, 0.9), faults: { errorRate: 0.5 } });
    const first = await sandbox(await signedRequest('/api/v2/payments', createBody()));
    expect(first.status).toBe(500);
    expect(first.headers.get('signature')).toBe('');
    expect((await readRefusal(first)).message).toMatch(/errorRate/);
    const second = await sandbox(await signedRequest('/api/v2/payments', createBody()));
    expect(second.status).toBe(503);
    expect(sandbox.payments()).toHaveLength(0);
    const third = await sandbox(await signedRequest('/api/v2/payments', createBody()));
    expect(third.status).toBe(200);
    expect(sandbox.payments()).toHaveLength(1);
  });

  it('errorRate answers some of that share with a 502 or 504 after the request took effect, as a gateway may', async () => {
    const { sandbox } = setup({ random: draws(0.1, 0.6, 0.1, 0.9), faults: { errorRate: 0.5 } });
    const first = await sandbox(await signedRequest('/api/v2/payments', createBody({ orderId: 'LOST-1' })));
    expect(first.status).toBe(502);
    expect(first.headers.get('signature')).toBe('');
    expect((await readRefusal(first)).message).toMatch(/took effect/);
    const second = await sandbox(await signedRequest('/api/v2/payments', createBody({ orderId: 'LOST-2' })));
    expect(second.status).toBe(504);
    // Both payments exist: a create retried on a 5xx alone would make a second one.
    expect(sandbox.payments().map((p) => p.orderId)).toEqual(['LOST-2', 'LOST-1']);
  });

  it('htmlErrors answers those 5xx as a gateway does: an HTML page and no Signature header, before and after the effect', async () => {
    const { sandbox } = setup({ random: draws(0.1, 0.3, 0.1, 0.6), faults: { errorRate: 0.5, htmlErrors: true } });
    const before = await sandbox(await signedRequest('/api/v2/payments', createBody({ orderId: 'GW-1' })));
    expect(before.status).toBe(503);
    expect(before.headers.has('signature')).toBe(false);
    expect(before.headers.get('content-type')).toMatch(/^text\/html/);
    expect(await before.text()).toContain('<title>503 Service Temporarily Unavailable</title>');
    expect(sandbox.payments()).toHaveLength(0);
    const after = await sandbox(await signedRequest('/api/v2/payments', createBody({ orderId: 'GW-2' })));
    expect(after.status).toBe(502);
    expect(after.headers.has('signature')).toBe(false);
    expect(await after.text()).toMatch(/^<html>[\s\S]*<h1>502 Bad Gateway<\/h1>/);
    expect(sandbox.payments().map((p) => p.orderId)).toEqual(['GW-2']);
  });

  it('malformedRate garbles a signed answer after the payment was created', async () => {
    const { sandbox } = setup({ random: draws(0.3), faults: { malformedRate: 0.5 } });
    const response = await sandbox(await signedRequest('/api/v2/payments', createBody()));
    expect(response.status).toBe(200);
    const text = await response.text();
    expect(() => JSON.parse(text)).toThrow();
    expect(await verifySignature(DEMO_MERCHANT.secret, text, response.headers.get('signature'))).toBe(true);
    expect(sandbox.payments()).toHaveLength(1);
    // The next draw is 0.99: the answer is whole again.
    const id = sandbox.payments()[0]!.id;
    expect((await readSigned(await status(sandbox, { paymentId: id }))).id).toBe(id);
  });

  it('statusAsArray answers a single-id status request with a one-element array', async () => {
    const { sandbox } = setup();
    const id = await createPayment(sandbox);
    sandbox.setFaults({ statusAsArray: true });
    const byId = await readSigned(await status(sandbox, { paymentId: id }));
    expect(byId).toEqual([expect.objectContaining({ id })]);
    const byOrder = await readSigned(await status(sandbox, { orderId: 'A-1001' }));
    expect(byOrder).toHaveLength(1);
  });

  it('duplicateCallbacks sends every callback twice, each recorded', async () => {
    const { sandbox, clock, sent } = setup({ faults: { duplicateCallbacks: true } });
    const id = await createPayment(sandbox);
    await clock.advance(1000);
    await sandbox.idle();
    expect(sent.map((s) => JSON.parse(s.body).state)).toEqual(['pending', 'pending']);
    expect(sent[0]!.body).toBe(sent[1]!.body);
    // Both copies are on the wire at once and each is recorded when it is answered, in either order.
    const deliveries = [...sandbox.payment(id)!.deliveries].sort((a, b) => a.callback - b.callback);
    expect(deliveries.map((d) => d.duplicate ?? false)).toEqual([false, true]);
    expect(deliveries[0]!.callback).not.toBe(deliveries[1]!.callback);
  });

  it('reorderCallbacks lets a final state overtake the callback of the state before it', async () => {
    const { sandbox, clock, sent } = setup({ faults: { reorderCallbacks: true }, reorderDelayMs: 3000 });
    const id = await createPayment(sandbox);
    await clock.advance(1000); // pending: held back 3 s
    await sandbox.idle();
    expect(sent).toHaveLength(0);
    sandbox.act(id, 'pay');
    await sandbox.idle();
    await clock.advance(3000);
    await sandbox.idle();
    expect(sent.map((s) => JSON.parse(s.body).state)).toEqual(['finished', 'pending']);
  });
});
