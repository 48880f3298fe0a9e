/**
 * The QR a shopper's phone would scan: taken from a screenshot of the element and decoded by an independent
 * reader (jsQR), it must be exactly the UPI link of the NPCI linking spec for this payment's payee, amount and
 * order. The same run keeps a screenshot of the element for the docs (test-results/widget.png; with
 * PAYIN_UPDATE_DOCS=1 also docs/widget.png).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { newContext } from './support/browser.js';
import { decodeQr } from './support/read-qr.js';
import { useDemo } from './support/use-demo.js';
import { pendingPaymentOf } from './support/services.js';
import { checkoutOnShop, waitForScreen } from './support/shopper.js';

const live = useDemo();

describe('the QR code', () => {
  it('decodes to exactly the upi:// link for the payee, amount and order', async () => {
    const context = await newContext(live.browser);
    const page = await context.newPage();
    const orderId = await checkoutOnShop(page, live.demo.storeUrl, '/shop', 'upi');
    await waitForScreen(page, 'pay');
    const payment = await pendingPaymentOf(live.demo.sandboxUrl, orderId, 'upi');
    const { address, recipient } = payment.requisites!;

    const qr = page.locator('payin-checkout [part="qr"]');
    await qr.waitFor();
    const decoded = decodeQr(await qr.screenshot({ animations: 'disabled' }));

    const e = encodeURIComponent;
    const expected = `upi://pay?pa=${e(address)}&pn=${e(recipient ?? address)}&am=499.00&cu=INR&tr=${e(orderId)}&tn=${e(`Order ${orderId}`)}`;
    expect(decoded).toBe(expected);
    expect(decoded).not.toContain('+');

    // A picture of the element for the README, from this very run.
    const shot = await page.locator('payin-checkout').screenshot({ animations: 'disabled' });
    mkdirSync(new URL('../../test-results/', import.meta.url), { recursive: true });
    writeFileSync(new URL('../../test-results/widget.png', import.meta.url), shot);
    if (process.env.PAYIN_UPDATE_DOCS === '1') writeFileSync(new URL('../../docs/widget.png', import.meta.url), shot);
    await context.close();
  });
});
