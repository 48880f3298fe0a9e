/**
 * Paying on an iPhone in WebKit (WebKitGTK over WebDriver, a 375x667 viewport, Safari's user agent): a UPI and an
 * SBP payment end to end (create, the QR behind "pay from another device", copy, pay in the app the sandbox plays,
 * paid), a reload that resumes, the strict-CSP shop, and the payment followed by the event stream and, without
 * one, by polling. Every screen is kept in test-results/webkit/.
 */
import jsqr from 'jsqr';
import { PNG } from 'pngjs';
import { describe, expect, it } from 'vitest';
import { untilScreen } from '../support/coming-back.js';
import { act, pendingPaymentOf, placeOrder, sandboxPayments, waitFor } from '../support/services.js';
import { backTarget, copyAndPaste, elementPayment, inApp, openApp, openCheckout, shoot, tap } from './support/iphone.js';
import { useWebKit } from './support/use-webkit.js';
import { IPHONE, MIN_WINDOW_WIDTH } from './support/webkit.js';

const live = useWebKit({ SANDBOX_SBP_SHAPE: 'c2b' });

/** The text of the QR in a PNG (jsqr is CommonJS declared with `export default`: the default import is the module). */
function readQr(png: Buffer): string | undefined {
  const image = PNG.sync.read(png);
  const data = new Uint8ClampedArray(image.data.buffer, image.data.byteOffset, image.data.byteLength);
  return jsqr.default(data, image.width, image.height)?.data;
}

describe('paying on an iPhone in WebKit', () => {
  it('takes a UPI payment: QR, copy, pay in the app, back to "paid"', async () => {
    const { session, demo } = live;
    const order = await placeOrder(demo.storeUrl);
    await openCheckout(session, demo.storeUrl, order.id);
    const viewport = await session.run<{ width: number; height: number }>(`() => ({ width: innerWidth, height: innerHeight })`);
    console.log(`WebKit viewport: ${viewport.width}x${viewport.height} CSS px`);
    expect(viewport.height).toBe(IPHONE.height);
    expect(viewport.width, 'as narrow as the browser window goes').toBeLessThanOrEqual(MIN_WINDOW_WIDTH);
    await shoot(session, 'upi-1-pay');
    const payment = await pendingPaymentOf(demo.sandboxUrl, order.id, 'upi');
    expect(await copyAndPaste(session, 'address-label')).toBe(payment.requisites!.address);
    await tap(session, '[part~="other-device-toggle"]');
    const qr = await session.run<boolean>(`() => {
      const svg = document.querySelector('payin-checkout').shadowRoot.querySelector('[part~="qr"]');
      svg?.scrollIntoView({ block: 'center' });
      return !!svg;
    }`);
    expect(qr, 'the QR is there behind "pay from another device"').toBe(true);
    await shoot(session, 'upi-2-qr');
    // WebKitGTK shares no files, so the element offers the QR as a PNG to save: it reads as the payment's link.
    const saved = await session.run<string | null>(
      `() => document.querySelector('payin-checkout').shadowRoot.querySelector('[part~="save-link"]')?.href ?? null`,
    );
    expect(saved, 'a link that saves the QR as a PNG').toMatch(/^data:image\/png;base64,/);
    expect(readQr(Buffer.from(saved!.slice(saved!.indexOf(',') + 1), 'base64'))).toBe((await elementPayment(session))?.qr);

    await openApp(session, demo.sandboxUrl, '[part~="app-link"]');
    await shoot(session, 'upi-3-app');
    await inApp(session, 'pay');
    expect(await backTarget(session), 'a UPI app hands back to the browser as it was').toBeNull();
    await session.click(await session.find([], '#back'));
    await untilScreen(session, 'paid');
    await shoot(session, 'upi-4-paid');
    const payments = (await sandboxPayments(demo.sandboxUrl)).filter((p) => p.orderId === order.id);
    expect(payments.map((p) => p.state)).toEqual(['finished']);
  });

  it('takes an SBP payment on the strict-CSP shop: copy the phone number, pay in the bank app, back to "paid"', async () => {
    const { session, demo } = live;
    const order = await placeOrder(demo.storeUrl);
    await openCheckout(session, demo.storeUrl, order.id, { method: 'sbp', base: '/strict' });
    await session.run(
      `() => { window.__csp = []; document.addEventListener('securitypolicyviolation', (e) => window.__csp.push(e.violatedDirective)); }`,
    );
    await shoot(session, 'sbp-1-pay');
    const payment = await pendingPaymentOf(demo.sandboxUrl, order.id, 'sbp');
    expect(await copyAndPaste(session, 'address-label')).toBe(payment.requisites!.address);
    await openApp(session, demo.sandboxUrl, '[part~="bank-link"]');
    await shoot(session, 'sbp-2-bank-app');
    await inApp(session, 'pay');
    expect(await backTarget(session), "the bank app returns to the order's checkout").toMatch(`/checkout/${encodeURIComponent(order.id)}`);
    await session.click(await session.find([], '#back'));
    await untilScreen(session, 'paid');
    await shoot(session, 'sbp-3-paid');
  });

  it('copies by the fallback where the Clipboard API is refused (an embedded web view, an old iOS)', async () => {
    const { session, demo } = live;
    const order = await placeOrder(demo.storeUrl);
    await openCheckout(session, demo.storeUrl, order.id);
    await session.run(
      `() => {
        const refused = () => Promise.reject(new DOMException('refused', 'NotAllowedError'));
        Object.defineProperty(navigator, 'clipboard', { configurable: true, value: { writeText: refused } });
      }`,
    );
    const payment = await pendingPaymentOf(demo.sandboxUrl, order.id, 'upi');
    expect(await copyAndPaste(session, 'address-label')).toBe(payment.requisites!.address);
  });

  it('resumes the payment after a reload, with no second create', async () => {
    const { session, demo } = live;
    const order = await placeOrder(demo.storeUrl);
    await openCheckout(session, demo.storeUrl, order.id);
    const before = await elementPayment(session);
    await openCheckout(session, demo.storeUrl, order.id);
    await shoot(session, 'reload-1-resumed');
    expect((await elementPayment(session))?.id).toBe(before?.id);
    const payments = (await sandboxPayments(demo.sandboxUrl)).filter((p) => p.orderId === order.id);
    expect(payments, 'the reload created nothing').toHaveLength(1);
  });

  for (const feed of ['event stream', 'polling'] as const) {
    it(`follows the payment to "paid" by ${feed === 'polling' ? 'polling, without an event stream' : 'the event stream alone'}`, async () => {
      const { session, demo } = live;
      const order = await placeOrder(demo.storeUrl);
      await openCheckout(session, demo.storeUrl, order.id);
      // The element is put back (it resumes) with the page's EventSource counted, or gone; polling is slowed out of
      // reach when only the stream may bring the news.
      await session.run(
        `(polling) => {
          const Native = window.EventSource;
          window.__streams = 0;
          window.EventSource = polling ? undefined : class extends Native { constructor(...a) { super(...a); window.__streams++; } };
          const again = document.querySelector('payin-checkout').cloneNode(true);
          if (!polling) again.setAttribute('poll-interval', '3600000');
          else again.setAttribute('poll-interval', '500');
          document.querySelector('payin-checkout').replaceWith(again);
        }`,
        feed === 'polling',
      );
      await untilScreen(session, 'pay');
      if (feed === 'event stream') {
        await waitFor('the stream to open', async () => ((await session.run<number>(`() => window.__streams`)) > 0 ? true : undefined));
        // The resume's status call and the check that following starts with are answered: from now on only the
        // stream can tell.
        const answered = () =>
          session.run<number>(`() => performance.getEntriesByType('resource').filter((e) => e.name.includes('/payin/status')).length`);
        await waitFor('the first two status calls to be answered', async () => ((await answered()) >= 2 ? true : undefined));
      }
      await act(demo.sandboxUrl, (await pendingPaymentOf(demo.sandboxUrl, order.id)).id, 'pay');
      await untilScreen(session, 'paid');
      await shoot(session, `feed-${feed === 'polling' ? 'polling' : 'stream'}-paid`);
    });
  }
});
