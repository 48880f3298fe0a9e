import { describe, expect, it } from 'vitest';
import { bytesToBase64 } from '../../src/shared/bytes.js';
import { signBody } from '../../src/shared/hmac.js';
import { DEMO_MERCHANT } from '../../src/sandbox/index.js';
import { createBody, createPayment, readRefusal, readRefused, readSigned, setup, signedRequest, status } from './helpers.js';

const OTHER = { id: 'other-shop', token: 'other-token', secret: 'other-secret' };

describe('authenticating API requests', () => {
  it('refuses a missing, empty, wrong or base64 Signature with 401 and an empty Signature, creating nothing', async () => {
    const { sandbox } = setup();
    const body = JSON.stringify(createBody());
    const hex = await signBody(DEMO_MERCHANT.secret, body);
    const base64 = bytesToBase64(Uint8Array.from(hex.match(/../g)!.map((h) => parseInt(h, 16))));
    const cases: [string | null, RegExp][] = [
      [null, /missing Signature/],
      ['', /missing Signature/],
      ['   ', /missing Signature/],
      [hex.replace(/^./, hex[0] === 'a' ? 'b' : 'a'), /does not match/],
      [await signBody('not-the-secret', body), /does not match/],
      [base64, /does not match/],
    ];
    for (const [signature, message] of cases) {
      const response = await sandbox(await signedRequest('/api/v2/payments', body, { signature }));
      expect(response.status, String(signature)).toBe(401);
      expect(response.headers.get('signature')).toBe('');
      const refusal = await readRefusal(response);
      expect(refusal.code).toBe(401);
      expect(refusal.message).toMatch(message);
    }
    expect(sandbox.payments()).toHaveLength(0);
  });

  it('refuses the right HMAC written in uppercase hex, as the service compares lowercase hex as text', async () => {
    const { sandbox } = setup();
    const body = JSON.stringify(createBody());
    const upper = (await signBody(DEMO_MERCHANT.secret, body)).toUpperCase();
    const response = await sandbox(await signedRequest('/api/v2/payments', body, { signature: upper }));
    expect(response.status).toBe(401);
    expect(response.headers.get('signature')).toBe('');
    expect((await readRefusal(response)).message).toMatch(/lowercase hex/);
    expect(sandbox.payments()).toHaveLength(0);
  });

  it('refuses a body changed after signing (re-serialised with spaces)', async () => {
    const { sandbox } = setup();
    const compact = JSON.stringify(createBody());
    const signature = await signBody(DEMO_MERCHANT.secret, compact);
    const spaced = JSON.stringify(createBody(), null, 1);
    const response = await sandbox(await signedRequest('/api/v2/payments', spaced, { signature }));
    expect(response.status).toBe(401);
    expect((await readRefusal(response)).message).toMatch(/re-serialised/);
  });

  it('accepts the exact bytes it was signed over, spaces and all', async () => {
    const { sandbox } = setup();
    const spaced = JSON.stringify(createBody(), null, 2);
    const response = await sandbox(await signedRequest('/api/v2/payments', spaced));
    expect(response.status).toBe(200);
    expect((await readSigned(response)).status).toBe(true);
  });

  it('refuses a missing or unknown Bearer token with 401', async () => {
    const { sandbox } = setup();
    for (const token of [null, '', 'nope']) {
      const response = await sandbox(await signedRequest('/api/v2/status', { merchantId: 'demo-merchant', paymentId: 'x' }, { token }));
      expect(response.status).toBe(401);
      expect(response.headers.get('signature')).toBe('');
      expect((await readRefusal(response)).message).toMatch(/Bearer|credentials/);
    }
  });

  it('refuses a merchantId that does not belong to the token, with a signed 401', async () => {
    const { sandbox } = setup({ merchants: [DEMO_MERCHANT, OTHER] });
    const response = await sandbox(await signedRequest('/api/v2/payments', createBody({ merchantId: OTHER.id })));
    expect(response.status).toBe(401);
    expect((await readSigned(response)).message).toMatch(/merchantId/);
  });

  it('lets a merchant see only its own payments', async () => {
    const { sandbox } = setup({ merchants: [DEMO_MERCHANT, OTHER] });
    const mine = await readSigned(await sandbox(await signedRequest('/api/v2/payments', createBody({ orderId: 'shared-order' }))));
    const asOther = (query: Record<string, unknown>) =>
      signedRequest('/api/v2/status', { merchantId: OTHER.id, ...query }, { token: OTHER.token, secret: OTHER.secret });
    for (const query of [{ paymentId: mine.result.id }, { orderId: 'shared-order' }, { paymentIds: [mine.result.id] }]) {
      await readRefused(await sandbox(await asOther(query)), 404, OTHER.secret);
    }
    expect((await readSigned(await status(sandbox, { paymentId: mine.result.id }))).id).toBe(mine.result.id);
  });

  it('signs the answers to a second merchant with that merchant secret', async () => {
    const { sandbox } = setup({ merchants: [DEMO_MERCHANT, OTHER] });
    const response = await sandbox(
      await signedRequest('/api/v2/payments', createBody({ merchantId: OTHER.id }), { token: OTHER.token, secret: OTHER.secret }),
    );
    expect((await readSigned(response, OTHER.secret)).status).toBe(true);
  });

  it('sends an empty Signature to a merchant the service holds no secret for', async () => {
    const { sandbox, clock, sent } = setup({ merchants: [{ ...DEMO_MERCHANT, signAnswers: false }] });
    const response = await sandbox(await signedRequest('/api/v2/payments', createBody()));
    expect(response.status).toBe(200);
    expect(response.headers.get('signature')).toBe('');
    await clock.advance(1000);
    await sandbox.idle();
    expect(sent).toHaveLength(1);
    expect(sent[0]!.signature).toBe('');
  });

  it('takes the new secret after rotateSecret, refusing the old one, and signs answers and callbacks with it', async () => {
    const { sandbox, clock, sent } = setup();
    const id = await createPayment(sandbox);
    sandbox.rotateSecret(DEMO_MERCHANT.id, 'the-new-secret');
    const query = { merchantId: DEMO_MERCHANT.id, paymentId: id };
    const refused = await sandbox(await signedRequest('/api/v2/status', query));
    expect(refused.status).toBe(401);
    expect((await readRefusal(refused)).message).toMatch(/does not match/);
    const answer = await sandbox(await signedRequest('/api/v2/status', query, { secret: 'the-new-secret' }));
    expect(answer.status).toBe(200);
    expect(answer.headers.get('signature')).toBe(await signBody('the-new-secret', await answer.clone().text()));
    await clock.advance(1000); // requisites assigned: the payment's first callback
    await sandbox.idle();
    expect(sent.length).toBeGreaterThan(0);
    for (const callback of sent) expect(callback.signature).toBe(await signBody('the-new-secret', callback.body));
  });
});
