/**
 * The element as single-page apps mount it, over the ES module build: a route change that removes it while its
 * payment is being created, a new element for the same order on the way back, React StrictMode's mount, unmount
 * and mount again in one task. None may create a second payment, and an element taken off the page keeps nothing
 * running (a countdown ticking once a second on a detached element, for as long as the payment lives, is a leak
 * each route change adds to). An app may also set the element's endpoint after mounting it (from a configuration
 * it loads): the element follows its settings. Bundles the package with esbuild; run `npm run build` first.
 */
import { describe, expect, it } from 'vitest';
import { useAppShop } from './support/app-shop.js';
import { act, sandboxPayments } from './support/services.js';

/**
 * Makes `window.checkout(orderId)`: an element for the order (autostart, UPI) on a clock whose timers never fire
 * and are counted while pending (`element.timers`), so that what an element keeps scheduled can be seen.
 */
const ENTRY = `import 'payin-checkout';
window.checkout = (orderId) => {
  const timers = new Set();
  const element = Object.assign(document.createElement('payin-checkout'), { orderId, method: 'upi', autostart: true });
  element.clock = {
    now: () => Date.now(),
    setTimeout: (_callback, _ms) => { const handle = {}; timers.add(handle); return handle; },
    clearTimeout: (handle) => void timers.delete(handle),
  };
  element.timers = timers;
  return element;
};`;

const live = useAppShop(ENTRY);

async function paymentsOf(orderId: string): Promise<string[]> {
  return (await sandboxPayments(live.shop.sandboxUrl)).filter((p) => p.orderId === orderId).map((p) => p.id);
}

interface Probe {
  id: string | undefined;
  screen: string;
  timers: number;
}

/** The page's side: the element ENTRY makes, and where a test keeps one. */
type Checkout = HTMLElement & {
  updateComplete: Promise<boolean>;
  payment?: { id: string; method: string };
  screen: string;
  method: string;
  timers: Set<unknown>;
};
type ShopWindow = { checkout(orderId: string): Checkout; element: Checkout };

describe('the element mounted, unmounted and mounted again', () => {
  it('keeps no timer once removed while its payment is being created, and follows the payment when put back', async () => {
    const page = await live.open();
    await page.evaluate(async () => {
      const shop = window as unknown as ShopWindow;
      const element = shop.checkout('REMOUNT-1');
      shop.element = element;
      document.body.append(element);
      await element.updateComplete;
      element.remove(); // a route change while "Preparing payment details…"
    });
    const probe = () =>
      page.evaluate((): Probe => {
        const { element } = window as unknown as ShopWindow;
        return { id: element.payment?.id, screen: element.screen, timers: element.timers.size };
      });
    await expect.poll(async () => (await probe()).id, { timeout: 10_000 }).toBeDefined();
    expect((await probe()).timers).toBe(0);

    await page.evaluate(() => document.body.append((window as unknown as ShopWindow).element));
    await expect.poll(async () => (await probe()).timers, { timeout: 10_000 }).toBeGreaterThan(0);
    expect((await probe()).screen).toBe('pay');
    expect(await paymentsOf('REMOUNT-1')).toEqual([(await probe()).id]);
    await page.context().close();
  }, 60_000);

  it('shows the same payment in a new element for the order after a route change, and in a StrictMode double mount', async () => {
    const page = await live.open();
    const shown = await page.evaluate(async () => {
      const make = (window as unknown as ShopWindow).checkout;
      // Away mid-create and back at once: the second element asks again before the first answer is in.
      const first = make('REMOUNT-2');
      document.body.append(first);
      await first.updateComplete;
      first.remove();
      const second = make('REMOUNT-2');
      document.body.append(second);
      // StrictMode: mounted, unmounted and mounted again in one task.
      const strict = make('REMOUNT-3');
      document.body.append(strict);
      strict.remove();
      document.body.append(strict);
      for (let i = 0; i < 100 && !(second.payment && strict.payment); i++) await new Promise((resolve) => setTimeout(resolve, 100));
      return { first: first.payment?.id, second: second.payment?.id, strict: strict.payment?.id };
    });
    expect(shown.second).toBeDefined();
    expect(shown.first).toBe(shown.second);
    expect(await paymentsOf('REMOUNT-2')).toEqual([shown.second]);
    expect(await paymentsOf('REMOUNT-3')).toEqual([shown.strict]);
    await page.context().close();
  }, 60_000);

  it('announces the payment paid by the element put on the page after a route change while the first one resumed it', async () => {
    const page = await live.open();
    const id = await page.evaluate(async () => {
      const element = (window as unknown as ShopWindow).checkout('REMOUNT-4');
      document.body.append(element);
      for (let i = 0; i < 100 && !element.payment; i++) await new Promise((resolve) => setTimeout(resolve, 50));
      element.remove();
      return element.payment?.id;
    });
    // Paid in the bank app; the proxy knows it (asked as the tab would, with the token the tab keeps).
    await act(live.shop.sandboxUrl, id!, 'pay');
    await page.evaluate(async () => {
      const key = Object.keys(sessionStorage).find((k) => k.endsWith('|REMOUNT-4'))!;
      const { paymentId, token } = JSON.parse(sessionStorage.getItem(key)!);
      const body = JSON.stringify({ paymentId, token });
      for (let i = 0; i < 100; i++) {
        const answer = await fetch('/payin/status', { method: 'POST', headers: { 'content-type': 'application/json' }, body });
        if ((await answer.json()).payment.final) return;
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    });
    const heard = await page.evaluate(async () => {
      const make = (window as unknown as ShopWindow).checkout;
      const heard: string[] = [];
      document.addEventListener('payin-paid', (event) => heard.push((event.target as Element).id));
      // Back on the order's page: the element resumes the payment, and the app re-renders it with another key
      // before the answer is in (the first one's answer arrives while it is off the page).
      const first = Object.assign(make('REMOUNT-4'), { id: 'first' });
      document.body.append(first);
      await first.updateComplete;
      first.remove();
      await new Promise((resolve) => setTimeout(resolve, 0));
      const second = Object.assign(make('REMOUNT-4'), { id: 'second' });
      document.body.append(second);
      for (let i = 0; i < 100 && (second.screen !== 'paid' || first.screen !== 'paid'); i++) {
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      return heard;
    });
    // The shop's listener (on the document, or on the element it shows) hears it once, from the element on the page.
    expect(heard).toEqual(['second']);
    await page.context().close();
  }, 60_000);
});

describe('the element given another method while its payment is being created', () => {
  it('shows a payment by the method it was given last', async () => {
    const page = await live.open();
    const shown = await page.evaluate(async () => {
      const element = (window as unknown as ShopWindow).checkout('METHOD-1');
      document.body.append(element);
      await element.updateComplete; // "Preparing payment details…" for UPI
      element.method = 'c2c';
      for (let i = 0; i < 100 && element.payment?.method !== 'c2c'; i++) await new Promise((resolve) => setTimeout(resolve, 50));
      return { method: element.payment?.method, screen: element.screen, id: element.payment?.id };
    });
    expect(shown).toMatchObject({ method: 'c2c', screen: 'pay' });
    // The UPI payment was asked for before the change (its answer is dropped); the one shown is the card transfer.
    expect(await paymentsOf('METHOD-1')).toContain(shown.id);
    await page.context().close();
  }, 60_000);
});

describe('the element given another endpoint once mounted', () => {
  it('creates the payment through the endpoint the app sets after the first one failed', async () => {
    const page = await live.open();
    await page.evaluate(() => {
      const shop = window as unknown as ShopWindow;
      shop.element = Object.assign(shop.checkout('ENDPOINT-1'), { endpoint: '/not-yet' });
      document.body.append(shop.element);
    });
    const screen = () => page.evaluate(() => (window as unknown as ShopWindow).element.screen);
    await expect.poll(screen, { timeout: 10_000 }).toBe('error');
    await page.evaluate(() => Object.assign((window as unknown as ShopWindow).element, { endpoint: '/payin' }));
    await expect.poll(screen, { timeout: 10_000 }).toBe('pay');
    expect(await paymentsOf('ENDPOINT-1')).toHaveLength(1);
    await page.context().close();
  }, 60_000);
});
