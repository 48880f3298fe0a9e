/**
 * Coming back from the app on an iPhone in WebKit. Backgrounding: the page is hidden, its stream cut, the payment
 * paid meanwhile; shown again (visibilitychange, or pageshow alone as from the back-forward cache) it says paid.
 * The bank app sends the shopper back to the shop's return URL in the same tab, a new tab or a private browser: each
 * shows the truth (pending and still followed, or paid) without a second payment. An app payment cancelled in the
 * app ends on a screen the shopper can start again from, never on a spinner.
 */
import { describe, expect, it } from 'vitest';
import { type ComingBack, payWhileAway, untilScreen, WATCH } from '../support/coming-back.js';
import { act, pendingPaymentOf, placeOrder, sandboxPayments, waitFor } from '../support/services.js';
import { asIphone, backTarget, elementPayment, inApp, openApp, openCheckout, shoot, tap } from './support/iphone.js';
import { useWebKit } from './support/use-webkit.js';
import { IPHONE } from './support/webkit.js';

const live = useWebKit({ SANDBOX_SBP_SHAPE: 'c2b' });

/** The order's payments at the sandbox, by state. */
const statesOf = async (orderId: string) =>
  (await sandboxPayments(live.demo.sandboxUrl)).filter((p) => p.orderId === orderId).map((p) => p.state);

describe('coming back from the app on an iPhone (WebKit)', () => {
  for (const how of ['visibilitychange', 'pageshow'] as ComingBack[]) {
    it(`says paid as soon as the page is back (${how}), though its stream was cut`, async () => {
      const { session, demo } = live;
      const order = await placeOrder(demo.storeUrl);
      await openCheckout(session, demo.storeUrl, order.id);
      const { paidAfterMs, streams } = await payWhileAway(session, demo, order.id, how);
      console.log(`WebKit, back by ${how}: paid ${Math.round(paidAfterMs)} ms after the page was shown again`);
      expect(streams, 'the cut stream was opened again on coming back').toBeGreaterThanOrEqual(2);
      await shoot(session, `background-${how}-paid`);
    });
  }

  it('hears over the event stream at once after Back from the app restores the page from the back-forward cache', async () => {
    // WebKit suspends the page's stream in the cache and, once the page is shown again, reports it dropped and
    // reconnects by itself only after its own wait (3 s): a payment paid as the shopper comes back would wait that long.
    const { session, demo } = live;
    const order = await placeOrder(demo.storeUrl);
    await openCheckout(session, demo.storeUrl, order.id);
    await session.run(WATCH);
    await untilScreen(session, 'pay');
    await session.run(`() => {
      document.querySelector('payin-checkout').pollInterval = 3600000; // only the stream may bring the news
      window.addEventListener('pageshow', (e) => { if (e.persisted) window.__restoredAt = performance.now(); });
    }`);
    await waitFor('the event stream to open', () =>
      session.run<boolean>(`() => window.__streams.some((s) => s.readyState === 1)`).then((ok) => ok || undefined),
    );
    await openApp(session, demo.sandboxUrl, '[part~="app-link"]');
    await session.back();
    await waitFor('the page to come back from the cache, its checks answered', () =>
      session.run<boolean>(`() => window.__restoredAt > 0 && window.__inFlight === 0`).then((ok) => ok || undefined),
    );
    await session.run(`() => (window.__actAt = performance.now())`);
    await act(demo.sandboxUrl, (await pendingPaymentOf(demo.sandboxUrl, order.id)).id, 'pay');
    await untilScreen(session, 'paid');
    const { heardMs, streams } = await session.run<{ heardMs: number; streams: number }>(
      `() => ({ heardMs: window.__paidAt - window.__actAt, streams: window.__streams.length })`,
    );
    console.log(`WebKit, back from the cache: paid heard ${Math.round(heardMs)} ms after the payer paid (${streams} streams)`);
    expect(streams, 'a stream opened again after the cache').toBeGreaterThanOrEqual(2);
    expect(heardMs, 'heard over the stream, not after WebKit waited to reconnect').toBeLessThan(1_500);
    await shoot(session, 'back-from-cache-paid');
  });

  it("returns from the bank app to the shop's page in a new tab and in a private browser: pending, then paid", async () => {
    const { session, demo, webkit } = live;
    const order = await placeOrder(demo.storeUrl);
    await openCheckout(session, demo.storeUrl, order.id, { method: 'sbp' });
    const first = await elementPayment(session);
    await openApp(session, demo.sandboxUrl, '[part~="bank-link"]');
    const back = await backTarget(session);
    expect(back, "the bank app knows the order's checkout").toMatch(`/checkout/${encodeURIComponent(order.id)}`);
    const shop = await session.window();

    // Not paid yet: a new tab finds the same payment and follows it.
    const tab = await session.newTab();
    await session.switchTo(tab);
    await session.setWindowRect(IPHONE);
    await session.navigate(back!);
    await asIphone(session);
    await untilScreen(session, 'pay');
    await shoot(session, 'return-1-new-tab-pending');
    expect((await elementPayment(session))?.id, 'the new tab shows the payment already open').toBe(first?.id);
    await act(demo.sandboxUrl, first!.id, 'pay');
    await untilScreen(session, 'paid');
    await shoot(session, 'return-2-new-tab-paid');
    await session.closeWindow();
    await session.switchTo(shop);

    // Paid: a private browser (nothing remembered) shows it paid, and so does the same tab.
    const incognito = await webkit.iphone({ private: true });
    try {
      await incognito.navigate(back!);
      await asIphone(incognito);
      await untilScreen(incognito, 'paid');
      await shoot(incognito, 'return-3-private-paid');
    } finally {
      await incognito.end();
    }
    await session.click(await session.find([], '#back'));
    await untilScreen(session, 'paid');
    await shoot(session, 'return-4-same-tab-paid');
    expect(await statesOf(order.id), 'no second payment').toEqual(['finished']);
  });

  it('ends an app payment cancelled in the app on a screen to start again from', async () => {
    const { session, demo } = live;
    const order = await placeOrder(demo.storeUrl);
    await openCheckout(session, demo.storeUrl, order.id, { method: 'sbp' });
    await openApp(session, demo.sandboxUrl, '[part~="bank-link"]');
    await inApp(session, 'cancel');
    await shoot(session, 'cancel-1-app');
    await session.click(await session.find([], '#back'));
    await asIphone(session);
    await untilScreen(session, 'failed');
    await shoot(session, 'cancel-2-failed');
    await tap(session, '[part~="restart-button"]');
    await untilScreen(session, 'pay');
    await shoot(session, 'cancel-3-new-payment');
    expect(await statesOf(order.id)).toEqual(['pending', 'canceled']);
    await pendingPaymentOf(demo.sandboxUrl, order.id, 'sbp');
  });
});
