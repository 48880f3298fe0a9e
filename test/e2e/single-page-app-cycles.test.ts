/**
 * The element's life in a single-page app that stays open for hours: mounted and unmounted hundreds of times (route
 * changes, React keys, v-if), moved in the DOM, its attributes changed while it follows a payment. Nothing may be
 * left behind: no open event stream or BroadcastChannel, no Web Lock held or waited for, no listener on the window,
 * the document or a media query, no MutationObserver, no timer, no removed element kept alive; one payment and one
 * session key per order. The page counts what the element opens (the WATCH script wraps the constructors);
 * Chromium's DevTools protocol counts listeners and live elements after a full garbage collection. Bundles the
 * package with esbuild; run `npm run build` first.
 */
import { describe, expect, it } from 'vitest';
import { useAppShop } from './support/app-shop.js';
import { NEVER_FIRING_CLOCK, openNow, WATCH, type WatchedWindow } from './support/page-watch.js';
import { act, sandboxPayments } from './support/services.js';

/**
 * `window.checkout(orderId, props)`: an element for the order (autostart, UPI unless `props` say otherwise) on a
 * clock whose timers never fire and are counted while pending, one set for every element (`window.timers`).
 */
const ENTRY = `import 'payin-checkout';
${NEVER_FIRING_CLOCK}
window.checkout = (orderId, props) =>
  Object.assign(document.createElement('payin-checkout'), { orderId, method: 'upi', autostart: true, clock }, props);`;

const live = useAppShop(ENTRY);

/** The page's side: the element ENTRY makes. */
type Checkout = HTMLElement & {
  updateComplete: Promise<boolean>;
  payment?: { id: string; method: string };
  screen: string;
  orderId: string;
};
type ShopWindow = WatchedWindow & { checkout(orderId: string, props?: object): Checkout };

async function paymentsOf(orderId: string): Promise<{ id: string; method: string }[]> {
  return (await sandboxPayments(live.shop.sandboxUrl)).filter((p) => p.orderId === orderId).map(({ id, method }) => ({ id, method }));
}

describe('the element mounted and unmounted 200 times', () => {
  it('leaves no stream, channel, lock, listener, observer, timer or element behind, and one payment', async () => {
    const page = await live.open(WATCH);
    const before = await openNow(page);
    const shown = await page.evaluate(async () => {
      const { checkout } = window as unknown as ShopWindow;
      const first = checkout('CYCLES-1');
      document.body.append(first);
      for (let i = 0; i < 100 && !first.payment; i++) await new Promise((resolve) => setTimeout(resolve, 50));
      first.remove();
      // Route changes: most quick (the resume still on its way), every tenth long enough to follow (lead, stream).
      for (let i = 0; i < 200; i++) {
        const element = checkout('CYCLES-1');
        document.body.append(element);
        await new Promise((resolve) => setTimeout(resolve, i % 10 ? 5 : 150));
        element.remove();
      }
      return first.payment?.id;
    });
    // Everything answered after the last removal has settled by then (answers in flight find no element on the page).
    await expect.poll(async () => (await paymentsOf('CYCLES-1')).length, { timeout: 5_000 }).toBe(1);
    await expect
      .poll(
        async () => {
          const { streams, channels, timers } = await openNow(page);
          return streams + channels + timers;
        },
        { timeout: 10_000 },
      )
      .toBe(0);
    const after = await openNow(page);
    expect(after).toEqual({ ...before, storageKeys: 1 });
    expect(await paymentsOf('CYCLES-1')).toEqual([{ id: shown, method: 'upi' }]);
    await page.context().close();
  }, 90_000);
});

describe('the element moved in the DOM while it follows a payment', () => {
  it('keeps its one event stream through 20 moves, without a check each time, and hears the payment paid on it', async () => {
    const page = await live.open(WATCH);
    const checks: string[] = [];
    page.on('request', (request) => {
      if (request.url().includes('/payin/status')) checks.push(request.url());
    });
    const moved = await page.evaluate(async () => {
      const { checkout, __live: live } = window as unknown as ShopWindow;
      const [left, right] = [document.createElement('div'), document.createElement('div')];
      document.body.append(left, right);
      const element = checkout('MOVED-1');
      left.append(element);
      for (let i = 0; i < 100 && !live.streams.size; i++) await new Promise((resolve) => setTimeout(resolve, 50));
      const opened = live.opened;
      // A sidebar that re-parents it, a list that reorders: 20 moves, each in a task of its own.
      for (let i = 0; i < 20; i++) {
        (i % 2 ? left : right).append(element);
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      return { id: element.payment?.id, opened: live.opened - opened };
    });
    const checksWhileMoved = checks.length;
    expect(moved.opened, 'streams opened by the moves').toBe(0);
    const { streams, channels, locks, elements } = await openNow(page);
    expect({ streams, channels, locks, elements }).toEqual({ streams: 1, channels: 1, locks: 1, elements: 1 });
    expect(await page.evaluate(() => (window as unknown as ShopWindow).__live.mostStreams)).toBe(1);
    // Nothing on the element's clock fires: "paid" can only come through the stream it kept.
    await act(live.shop.sandboxUrl, moved.id!, 'pay');
    await page.waitForFunction(() => document.querySelector<Checkout>('payin-checkout')?.screen === 'paid', undefined, { timeout: 30_000 });
    expect(checksWhileMoved, 'status checks made by the element before the payment was paid').toBeLessThanOrEqual(1);
    expect(await paymentsOf('MOVED-1')).toEqual([{ id: moved.id, method: 'upi' }]);
    await page.context().close();
  }, 60_000);
});

describe('the element moved in two steps as its payment is created', () => {
  it('follows the payment it learned while off the page, once put back before its teardown', async () => {
    const page = await live.open(WATCH);
    const moved = await page.evaluate(async () => {
      const { checkout, __live: live } = window as unknown as ShopWindow;
      const [left, right] = [document.createElement('div'), document.createElement('div')];
      document.body.append(left, right);
      const element = checkout('MOVED-2');
      // An app that shows the payment in another column: the render it queues on the event puts the element there,
      // and the old column lets go of it at once, while the create's answer is still being taken in.
      element.addEventListener(
        'payin-created',
        () => {
          queueMicrotask(() => right.append(element));
          element.remove();
        },
        { once: true },
      );
      left.append(element);
      for (let i = 0; i < 100 && !live.streams.size; i++) await new Promise((resolve) => setTimeout(resolve, 50));
      return { id: element.payment?.id, onPage: element.parentElement === right, streams: live.streams.size };
    });
    expect(moved).toEqual({ id: expect.any(String), onPage: true, streams: 1 });
    await act(live.shop.sandboxUrl, moved.id!, 'pay');
    await page.waitForFunction(() => document.querySelector<Checkout>('payin-checkout')?.screen === 'paid', undefined, { timeout: 30_000 });
    await page.context().close();
  }, 60_000);
});

describe('the element given another language and order while it follows a payment', () => {
  it('keeps its stream through a language switch, and follows the new order with one stream', async () => {
    const page = await live.open(WATCH);
    const followed = await page.evaluate(async () => {
      const { checkout, __live: live } = window as unknown as ShopWindow;
      const element = checkout('SWITCH-1');
      document.body.append(element);
      for (let i = 0; i < 100 && !live.streams.size; i++) await new Promise((resolve) => setTimeout(resolve, 50));
      const opened = live.opened;
      element.lang = 'hi';
      await element.updateComplete;
      const afterLanguage = live.opened - opened;
      const first = element.payment?.id;
      element.orderId = 'SWITCH-2';
      for (let i = 0; i < 100 && !(element.payment && element.payment.id !== first && live.streams.size); i++) {
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      const urls = [...live.streams].map((stream) => new URL(stream.url).searchParams.get('paymentId'));
      return { afterLanguage, urls, shown: element.payment?.id, screen: element.screen };
    });
    expect(followed.afterLanguage).toBe(0);
    expect(followed.urls).toEqual([followed.shown]);
    expect(followed.screen).toBe('pay');
    expect((await paymentsOf('SWITCH-2')).map((p) => p.id)).toEqual([followed.shown]);
    await page.context().close();
  }, 60_000);
});
