/**
 * The sandbox's /phone page plays the payment app a deep link would open: it shows the payee, amount and
 * reference of the payment the link is for, pays it with the sandbox's own action, and refuses a link no app
 * would open with a clear page, never a 500.
 */
import { describe, expect, it } from 'vitest';
import { upiLink } from '../../src/shared/qr-payload.js';
import { BASE, createPayment, setup } from './helpers.js';

describe('GET /phone', () => {
  it('shows the UPI payment a link is for, with a Pay button for it, under a strict CSP', async () => {
    const { sandbox, clock } = setup({ requisitesDelayMs: 0 });
    const id = await createPayment(sandbox, { orderId: 'PH-1' });
    await clock.advance(1);
    const payee = sandbox.payment(id)!.requisites!.address;
    const link = upiLink({ vpa: payee, payeeName: 'Tea & Mugs', amount: '250.00', reference: 'PH-1' });
    const intent = `intent://pay?${link.split('?')[1]}#Intent;scheme=upi;package=com.phonepe.app;end`;
    const answer = await sandbox(new Request(`${BASE}/phone?link=${encodeURIComponent(intent)}`));
    expect(answer.status).toBe(200);
    expect(answer.headers.get('content-security-policy')).toContain("script-src 'self'");
    const html = await answer.text();
    expect(html).toContain('Pay with com.phonepe.app');
    expect(html).toContain('Tea &amp; Mugs');
    expect(html).toContain(`data-payment="${id}"`);
    const script = await sandbox(new Request(`${BASE}/phone.js`));
    expect(await script.text()).toContain(`/sandbox/payments/`);
  });

  it('finds no payment for a link to another payee, and refuses a link no app would open with 400', async () => {
    const { sandbox } = setup();
    const other = await sandbox(new Request(`${BASE}/phone?link=${encodeURIComponent('upi://pay?pa=someone%40bank&pn=X&tr=NOPE')}`));
    expect(await other.text()).toContain('No open payment of the sandbox matches this link');
    const bad = await sandbox(new Request(`${BASE}/phone?link=${encodeURIComponent('javascript:alert(1)')}`));
    expect(bad.status).toBe(400);
    expect(await bad.text()).toContain('no payment app handles javascript:');
  });
});
