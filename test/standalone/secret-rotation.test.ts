/**
 * PAYIN_SECRET of the standalone server during a rotation: the new secret and the old one, space-separated, as
 * PAYIN_WEBHOOK_SECRET takes its two. Checked with every other setting before anything listens, and handed to the
 * proxy, so that a checkout opened before the restart goes on, through the real sandbox over loopback.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { DEMO_MERCHANT } from '../../src/sandbox/index.js';
import { signBody } from '../../src/shared/hmac.js';
import { signOrderToken } from '../../src/standalone/index.js';
import { proxyUsage } from '../../src/standalone/usage.js';
import { configProblems, GOOD_ENV } from './support/config-problems.js';
import { type RestartedStandalone, restartedStandalone } from './support/restarted-standalone.js';

const OLD = DEMO_MERCHANT.secret;
const NEW = 'the-secret-the-service-issued-next';
const TOKEN_SECRET = 'order-token-key-for-tests';

describe('PAYIN_SECRET during a rotation', () => {
  it('takes two secrets, space-separated, and refuses three or the same one twice, with every other problem', () => {
    expect(configProblems({ ...GOOD_ENV, PAYIN_SECRET: `${NEW} ${OLD}` })).toBe('');
    const three = configProblems({ ...GOOD_ENV, PAYIN_SECRET: `${NEW} ${OLD} a-third-secret`, PORT: 'x' });
    expect(three).toMatch(/PAYIN_SECRET holds 3 secrets: give one, or during a rotation two, space-separated \(the new one first/);
    expect(three).toMatch(/PORT must be a port number/);
    expect(configProblems({ ...GOOD_ENV, PAYIN_SECRET: `${OLD}  ${OLD}` })).toMatch(/PAYIN_SECRET holds the same secret twice/);
  });

  it('says so in --help', () => {
    expect(proxyUsage()).toMatch(
      /PAYIN_SECRET +the signing secret the service gave you \(the new one and the old one, space-separated, while you rotate it\)/,
    );
  });

  describe('across a restart', () => {
    let stack: RestartedStandalone | undefined;
    afterEach(async () => {
      await stack?.close();
      stack = undefined;
    });

    it('lets a checkout opened under the old secret read its payment after a restart with the new and the old one', async () => {
      stack = await restartedStandalone();
      const { post } = stack;
      await stack.start({ PAYIN_SECRET: OLD, PAYIN_ORDER_TOKEN_SECRET: TOKEN_SECRET });
      const exp = Math.floor(Date.now() / 1000) + 600;
      const orderToken = await signOrderToken(TOKEN_SECRET, { orderId: 'R-1', amount: '250.00', currency: 'INR', exp });
      const opened = await post('/payments', { orderId: 'R-1', method: 'upi', orderToken });
      expect(opened.status).toBe(201);
      const { id } = opened.body.payment;
      stack.sandbox.rotateSecret(DEMO_MERCHANT.id, NEW);
      await stack.start({ PAYIN_SECRET: `${NEW} ${OLD}`, PAYIN_ORDER_TOKEN_SECRET: TOKEN_SECRET });
      const read = await post('/status', { paymentId: id, token: opened.body.token });
      expect(read.status).toBe(200);
      expect(read.body.payment.id).toBe(id);
      const stranger = await signBody(await signBody('neither-secret', 'payin-checkout payment token v1'), id);
      expect((await post('/status', { paymentId: id, token: stranger })).status).toBe(404);
    });
  });
});
