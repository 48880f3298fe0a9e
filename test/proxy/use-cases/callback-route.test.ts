import { describe, expect, it } from 'vitest';
import { signBody } from '../../../src/shared/hmac.js';
import { setup, until } from '../harness.js';
import { SECRET } from '../fake-service.js';

async function paidSetup() {
  const t = setup();
  const { body } = await t.create();
  const payment = t.service.payments.get(body.payment.id)!;
  return { ...t, id: body.payment.id, token: body.token, payment };
}

describe('POST /payin/callback', () => {
  it('changes nothing for a forged, empty, missing or altered signature, and answers 401', async () => {
    const t = await paidSetup();
    t.service.set(t.id, { state: 'finished', status: true });
    const notice = { ...t.payment };
    const text = JSON.stringify(notice);
    const good = await signBody(SECRET, text);
    const answers = [
      await t.callback(notice, await signBody('guess', text)),
      await t.callback(notice, ''),
      await t.callback(notice, null),
      await t.callback(text.replace('"finished"', '"canceled"'), good),
      await t.callback(`${text} `, good),
    ];
    expect(answers.map((r) => r.status)).toEqual([401, 401, 401, 401, 401]);
    expect((await t.store.getPayment(t.id))!.view.state).toBe('pending');
    expect(t.updates.filter((u) => u.source === 'callback')).toHaveLength(0);
    expect(t.service.paymentStatuses).toHaveLength(1); // only the create's completion
  });

  it('accepts a signature in base64 when configured so', async () => {
    const t = setup({
      provider: { baseUrl: 'http://service.test', merchantId: 'm-1', token: 'bearer-1', secret: SECRET, signatureEncoding: 'base64' },
    });
    const text = JSON.stringify({ id: 'unknown', state: 'pending' });
    expect((await t.callback(text, await signBody(SECRET, text, 'base64'))).status).toBe(200);
    expect((await t.callback(text, await signBody(SECRET, text, 'hex'))).status).toBe(401);
  });

  it('during a rotation of the secret believes a callback signed under the new or the old one, and no other', async () => {
    const t = setup({
      provider: { baseUrl: 'http://service.test', merchantId: 'm-1', token: 'bearer-1', secret: `the-new-secret ${SECRET}` },
    });
    const text = JSON.stringify({ id: 'unknown', state: 'pending' });
    expect((await t.callback(text, await signBody('the-new-secret', text))).status).toBe(200);
    // Signed by the service before it switched to the new secret, and delivered (or retried) after the restart.
    expect((await t.callback(text, await signBody(SECRET, text))).status).toBe(200);
    expect((await t.callback(text, await signBody('a-third-secret', text))).status).toBe(401);
    expect((await t.callback(text, await signBody(`the-new-secret ${SECRET}`, text))).status).toBe(401);
  });

  it('answers 400 to a signed body that is not a payment, and 200 to a payment it does not know', async () => {
    const t = setup();
    expect((await t.callback('{not json')).status).toBe(400);
    expect((await t.callback({ hello: 'world' })).status).toBe(400);
    expect((await t.callback({ id: 'someone-else', state: 'finished' })).status).toBe(200);
    expect(t.updates).toHaveLength(0);
  });

  it('confirms paid with a status call and announces it exactly once despite duplicates and reordering', async () => {
    const t = await paidSetup();
    t.service.set(t.id, { state: 'finished', status: true });
    const paid = { ...t.payment };
    const pending = { ...t.payment, state: 'pending', status: false };
    const inCheck = { ...t.payment, state: 'in_check', status: false };
    const statuses = [];
    for (const notice of [paid, paid, inCheck, pending, paid]) statuses.push((await t.callback(notice)).status);
    expect(statuses).toEqual([200, 200, 200, 200, 200]);
    expect(t.updates.filter((u) => u.payment.outcome === 'paid')).toHaveLength(1);
    expect((await t.store.getPayment(t.id))!.view.state).toBe('finished');
    expect(t.service.paymentStatuses).toHaveLength(2); // completion + one confirmation
  });

  it('stores what the status says when a callback claims paid but the service disagrees', async () => {
    const t = await paidSetup();
    t.service.set(t.id, { state: 'in_check' });
    const response = await t.callback({ ...t.payment, state: 'finished', status: true });
    expect(response.status).toBe(200);
    expect((await t.store.getPayment(t.id))!.view.state).toBe('in_check');
    expect(t.updates.some((u) => u.payment.outcome === 'paid')).toBe(false);
  });

  it('never lets a final state be replaced or an older state overwrite a newer one', async () => {
    const t = await paidSetup();
    await t.callback({ ...t.payment, state: 'in_check' });
    await t.callback({ ...t.payment, state: 'created' });
    expect((await t.store.getPayment(t.id))!.view.state).toBe('in_check');
    await t.callback({ ...t.payment, state: 'expired' });
    await t.callback({ ...t.payment, state: 'pending' });
    await t.callback({ ...t.payment, state: 'failed' });
    expect((await t.store.getPayment(t.id))!.view.state).toBe('expired');
  });

  it('acknowledges a recorded state although the shop hook throws, and the proxy itself calls the hook again until it succeeds', async () => {
    let calls = 0;
    const seen: string[] = [];
    const t = setup({
      onPaymentUpdate: (payment) => {
        if (payment.outcome !== 'paid') return;
        calls++;
        if (calls <= 2) throw new Error('warehouse offline');
        seen.push(payment.state);
      },
    });
    const { body } = await t.create();
    t.service.set(body.payment.id, { state: 'finished', status: true });
    const notice = { ...t.service.payments.get(body.payment.id)! };
    const first = await t.callback(notice);
    expect(first.status).toBe(200);
    expect(calls).toBe(1);
    // Duplicates of the callback never call the hook while its retry is scheduled.
    expect((await t.callback(notice)).status).toBe(200);
    expect(calls).toBe(1);
    // The retries come from the proxy, with backoff: about 1 s, then about 2 s.
    await t.clock.advance(1_000);
    await until(() => calls === 2, 'the first retry');
    await t.clock.advance(2_000);
    await until(() => calls === 3, 'the second retry');
    expect(seen).toEqual(['finished']);
    await t.clock.advance(60 * 60_000);
    expect((await t.callback(notice)).status).toBe(200);
    expect(calls).toBe(3);
  });

  it('answers 502 when paid cannot be confirmed, so that the service delivers again', async () => {
    const t = setup({ timeouts: { statusDeadlineMs: 1 } });
    const { body } = await t.create();
    t.service.onStatus = () => ({ status: 500, body: {} });
    const response = await t.callback({ ...t.service.payments.get(body.payment.id)!, state: 'finished' });
    expect(response.status).toBe(502);
    expect((await t.store.getPayment(body.payment.id))!.view.state).toBe('pending');
  });

  it('refuses a callback body over 64 KiB with 413', async () => {
    const t = setup();
    const big = JSON.stringify({ id: 'x', state: 'pending', pad: 'a'.repeat(70 * 1024) });
    expect((await t.callback(big)).status).toBe(413);
  });
});
