/**
 * The element as React 19 and Vue 3 apps render it, and as plain DOM code moves it, in Chromium over the ES module
 * build with the frameworks' own packages: React's StrictMode (development build), keyed list reorders, conditional
 * rendering, a Suspense boundary that hides it, a portal into a modal; Vue's keyed v-for, <KeepAlive>, <Teleport>,
 * v-if; a <dialog>, replaceWith, a DocumentFragment round trip. Through all of
 * it: one payment per order, one event stream at a time, payin-paid heard once by the shop, the checkout still
 * working after each move (paid is heard on the stream: the page's clock never fires), and nothing left behind once
 * it is removed. Bundles the package with esbuild; run `npm run build` first.
 */
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { useAppShop } from './support/app-shop.js';
import { NEVER_FIRING_CLOCK, openNow, WATCH, type WatchedWindow } from './support/page-watch.js';
import { act, sandboxPayments } from './support/services.js';

/**
 * `window.react(props)` renders the shop's React app in StrictMode (flushSync: the DOM is there when it returns);
 * `window.vue` holds the Vue app's reactive props; `window.heard` lists the payin-paid events the document heard;
 * `window.until(probe)` waits, bounded, for the probe. Every element runs on a clock whose timers never fire and are
 * counted while pending (`window.timers`); `window.checkout(orderId)` makes one for plain DOM code.
 */
const ENTRY = `import 'payin-checkout';
import { createElement as r, StrictMode, Suspense, use } from 'react';
import { createRoot } from 'react-dom/client';
import { createPortal, flushSync } from 'react-dom';
import { createApp, h, KeepAlive, reactive, Teleport } from 'vue';
${NEVER_FIRING_CLOCK}
window.heard = [];
document.addEventListener('payin-paid', (event) => window.heard.push(event.detail.payment.id));
window.until = async (probe) => {
  for (let i = 0; i < 200 && !probe(); i++) await new Promise((resolve) => setTimeout(resolve, 50));
  return probe();
};
const checkoutProps = (orderId) => ({ orderId, method: 'upi', autostart: true, clock });

const never = new Promise(() => {});
function Stalls() { use(never); return null; }
function Shop({ orderId, show = true, order = ['checkout'], modal = false, suspend = false }) {
  const checkout = r('payin-checkout', { key: 'checkout', ...checkoutProps(orderId) });
  const items = order.map((key) => key === 'checkout' ? checkout : r('p', { key }, key));
  const page = modal ? items.filter((item) => item !== checkout) : items;
  return r('main', null,
    show && r(Suspense, { fallback: r('p', null, 'loading') }, r('section', null, page), suspend && r(Stalls)),
    show && modal && createPortal(checkout, document.getElementById('modal')));
}
let root;
window.react = (props) => {
  if (!props) return flushSync(() => root.unmount());
  if (!root) {
    const modal = document.createElement('div');
    modal.id = 'modal';
    const app = document.createElement('div');
    document.body.append(app, modal);
    root = createRoot(app);
  }
  flushSync(() => root.render(r(StrictMode, null, r(Shop, props))));
};

const Checkout = { name: 'Checkout', props: ['orderId'], render() { return h('payin-checkout', checkoutProps(this.orderId)); } };
const Other = { name: 'Other', render: () => h('p', 'another step') };
window.vue = reactive({ orderId: '', show: true, order: ['checkout'], keepAlive: 'checkout', teleport: false });
window.mountVue = () => {
  const modal = document.createElement('div');
  modal.id = 'vue-modal';
  const app = document.createElement('div');
  document.body.append(app, modal);
  const vue = window.vue;
  const instance = createApp({
    render: () => h('main', [
      vue.show && h('ul', vue.order.map((key) => h('li', { key }, key === 'checkout'
        ? [h(Teleport, { to: '#vue-modal', disabled: !vue.teleport }, [h('payin-checkout', checkoutProps(vue.orderId))])]
        : key))),
      h(KeepAlive, null, [vue.keepAlive === 'checkout' ? h(Checkout, { orderId: vue.orderId + '-kept' }) : h(Other)]),
    ]),
  });
  instance.mount(app);
  window.unmountVue = () => instance.unmount();
};
window.checkout = (orderId) => Object.assign(document.createElement('payin-checkout'), checkoutProps(orderId));`;

const live = useAppShop(ENTRY, {
  'process.env.NODE_ENV': '"development"',
  __VUE_OPTIONS_API__: 'true',
  __VUE_PROD_DEVTOOLS__: 'false',
  __VUE_PROD_HYDRATION_MISMATCH_DETAILS__: 'false',
});

type Checkout = HTMLElement & { payment?: { id: string }; screen: string; orderId: string };
type ShopWindow = WatchedWindow & {
  heard: string[];
  until<T>(probe: () => T): Promise<T>;
  checkout(orderId: string): Checkout;
};

async function paymentsOf(orderId: string): Promise<string[]> {
  return (await sandboxPayments(live.shop.sandboxUrl)).filter((p) => p.orderId === orderId).map((p) => p.id);
}

/** The element for `orderId` once it follows its payment on a stream: its payment's id. */
function followed(page: Page, orderId: string): Promise<string | undefined> {
  return page.evaluate(async (orderId) => {
    const { until, __live: live } = window as unknown as ShopWindow;
    const element = () => [...document.querySelectorAll<Checkout>('payin-checkout')].find((e) => e.orderId === orderId);
    await until(() => element()?.payment && [...live.streams].some((s) => s.url.includes(element()!.payment!.id)));
    return element()?.payment?.id;
  }, orderId);
}

/** Pays `id` at the sandbox (unless paid already) and waits for the element of `orderId` to show it paid. */
async function pay(page: Page, orderId: string, id: string, paidAlready = false): Promise<void> {
  if (!paidAlready) await act(live.shop.sandboxUrl, id, 'pay');
  await page.waitForFunction(
    (orderId) => [...document.querySelectorAll<Checkout>('payin-checkout')].some((e) => e.orderId === orderId && e.screen === 'paid'),
    orderId,
    { timeout: 30_000 },
  );
}

/** After everything is removed: no stream, channel, lock or timer is left, and the shop heard each payment paid once. */
async function leftBehind(page: Page): Promise<{ streams: number; channels: number; locks: number; timers: number; mostStreams: number }> {
  await expect.poll(async () => (await openNow(page)).streams, { timeout: 10_000 }).toBe(0);
  const { streams, channels, locks, timers } = await openNow(page);
  const mostStreams = await page.evaluate(() => (window as unknown as ShopWindow).__live.mostStreams);
  return { streams, channels, locks, timers, mostStreams };
}

/** Sets the Vue app's props (mounting it the first time) and waits until Vue has rendered them. */
function vueProps(page: Page): (change: object) => Promise<void> {
  return (change) =>
    page.evaluate(async (change) => {
      const w = window as unknown as { vue: object; mountVue(): void; unmountVue?: () => void };
      Object.assign(w.vue, change);
      if (!w.unmountVue) w.mountVue();
      // Vue renders in a microtask; a task later the DOM is there.
      await new Promise((resolve) => setTimeout(resolve, 20));
    }, change);
}

const NOTHING = { streams: 0, channels: 0, locks: 0, timers: 0, mostStreams: 1 };

describe('React 19', () => {
  it('keeps one stream through StrictMode, keyed reorders, a Suspense fallback and a portal into a modal', async () => {
    const page = await live.open(WATCH);
    await page.evaluate(() =>
      (window as unknown as { react(props: object): void }).react({ orderId: 'REACT-1', order: ['a', 'checkout', 'b'] }),
    );
    const id = await followed(page, 'REACT-1');
    expect(id).toBeDefined();
    const opened = await page.evaluate(async () => {
      const { __live: live, react } = window as unknown as ShopWindow & { react(props: object): void };
      const start = live.opened;
      const orders = [
        ['checkout', 'a', 'b'],
        ['b', 'a', 'checkout'],
        ['a', 'checkout', 'b'],
        ['b', 'checkout', 'a'],
      ];
      for (const order of orders) {
        react({ orderId: 'REACT-1', order });
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      const reorders = live.opened - start;
      // A sibling suspends: React hides the boundary's content (display: none) and shows it again.
      react({ orderId: 'REACT-1', order: ['checkout'], suspend: true });
      await new Promise((resolve) => setTimeout(resolve, 50));
      react({ orderId: 'REACT-1', order: ['checkout'] });
      await new Promise((resolve) => setTimeout(resolve, 50));
      return { reorders, suspense: live.opened - start - reorders };
    });
    expect(opened).toEqual({ reorders: 0, suspense: 0 });
    // Into the modal and back: a portal is another parent, so React makes a new element, which resumes the payment.
    for (const modal of [true, false, true]) {
      await page.evaluate((modal) => (window as unknown as { react(props: object): void }).react({ orderId: 'REACT-1', modal }), modal);
      expect(await followed(page, 'REACT-1')).toBe(id);
    }
    await pay(page, 'REACT-1', id!);
    expect(await page.evaluate(() => (window as unknown as ShopWindow).heard)).toEqual([id]);
    await page.evaluate(() => (window as unknown as { react(props?: object): void }).react());
    expect(await leftBehind(page)).toEqual(NOTHING);
    expect(await paymentsOf('REACT-1')).toEqual([id]);
    await page.context().close();
  }, 90_000);

  it('resumes the payment after conditional rendering hides the checkout, and hears it paid once', async () => {
    const page = await live.open(WATCH);
    const render = (props: object) => page.evaluate((props) => (window as unknown as { react(props: object): void }).react(props), props);
    await render({ orderId: 'REACT-2' });
    const id = await followed(page, 'REACT-2');
    for (let i = 0; i < 5; i++) {
      await render({ orderId: 'REACT-2', show: false });
      await render({ orderId: 'REACT-2', show: true });
    }
    expect(await followed(page, 'REACT-2')).toBe(id);
    // Paid while the checkout is hidden: the element shown again hears it, once.
    await render({ orderId: 'REACT-2', show: false });
    await act(live.shop.sandboxUrl, id!, 'pay');
    await render({ orderId: 'REACT-2', show: true });
    await pay(page, 'REACT-2', id!, true);
    expect(await page.evaluate(() => (window as unknown as ShopWindow).heard)).toEqual([id]);
    await render({ orderId: 'REACT-2', show: false });
    expect(await leftBehind(page)).toEqual(NOTHING);
    expect(await paymentsOf('REACT-2')).toEqual([id]);
    await page.context().close();
  }, 90_000);
});

describe('Vue 3', () => {
  it('keeps one stream through keyed v-for reorders and a Teleport into a modal, and resumes after v-if', async () => {
    const page = await live.open(WATCH);
    const set = vueProps(page);
    await set({ orderId: 'VUE-1', order: ['a', 'checkout', 'b'], keepAlive: 'other' });
    const id = await followed(page, 'VUE-1');
    const before = await page.evaluate(() => (window as unknown as ShopWindow).__live.opened);
    for (const order of [
      ['checkout', 'a', 'b'],
      ['b', 'a', 'checkout'],
      ['a', 'checkout', 'b'],
    ])
      await set({ order });
    for (const teleport of [true, false, true, false]) await set({ teleport });
    expect(await page.evaluate(() => (window as unknown as ShopWindow).__live.opened)).toBe(before);
    for (const show of [false, true]) await set({ show });
    expect(await followed(page, 'VUE-1')).toBe(id);
    await pay(page, 'VUE-1', id!);
    expect(await page.evaluate(() => (window as unknown as ShopWindow).heard)).toEqual([id]);
    await page.evaluate(() => (window as unknown as { unmountVue(): void }).unmountVue());
    expect(await leftBehind(page)).toEqual(NOTHING);
    expect(await paymentsOf('VUE-1')).toEqual([id]);
    await page.context().close();
  }, 90_000);

  it('lets go of the stream while <KeepAlive> keeps the checkout off the page, and hears it paid once back', async () => {
    const page = await live.open(WATCH);
    const set = vueProps(page);
    await set({ orderId: 'VUE-2', show: false, keepAlive: 'checkout' });
    const id = await followed(page, 'VUE-2-kept');
    await set({ keepAlive: 'other' });
    // Deactivated: its element sits in Vue's detached storage, and follows nothing there.
    await expect.poll(async () => (await openNow(page)).streams, { timeout: 10_000 }).toBe(0);
    await act(live.shop.sandboxUrl, id!, 'pay');
    await set({ keepAlive: 'checkout' });
    await pay(page, 'VUE-2-kept', id!, true);
    expect(await page.evaluate(() => (window as unknown as ShopWindow).heard)).toEqual([id]);
    await page.evaluate(() => (window as unknown as { unmountVue(): void }).unmountVue());
    expect(await leftBehind(page)).toEqual(NOTHING);
    expect(await paymentsOf('VUE-2-kept')).toEqual([id]);
    await page.context().close();
  }, 90_000);
});

describe('plain DOM moves', () => {
  it('keeps one stream through a <dialog>, replaceWith and a DocumentFragment round trip', async () => {
    const page = await live.open(WATCH);
    await page.evaluate(() => {
      document.body.append((window as unknown as ShopWindow).checkout('DOM-1'));
    });
    const id = await followed(page, 'DOM-1');
    const opened = await page.evaluate(async () => {
      const { __live: live } = window as unknown as ShopWindow;
      const element = document.querySelector('payin-checkout')!;
      const start = live.opened;
      const tick = () => new Promise((resolve) => setTimeout(resolve, 20));
      const dialog = document.body.appendChild(document.createElement('dialog'));
      dialog.append(element);
      dialog.showModal();
      await tick();
      dialog.close();
      document.body.append(element);
      await tick();
      const placeholder = document.createElement('p');
      element.replaceWith(placeholder);
      placeholder.replaceWith(element);
      await tick();
      const fragment = document.createDocumentFragment();
      fragment.append(element);
      document.body.append(fragment);
      await tick();
      return live.opened - start;
    });
    expect(opened).toBe(0);
    await pay(page, 'DOM-1', id!);
    expect(await page.evaluate(() => (window as unknown as ShopWindow).heard)).toEqual([id]);
    await page.evaluate(() => document.querySelector('payin-checkout')!.remove());
    expect(await leftBehind(page)).toEqual(NOTHING);
    expect(await paymentsOf('DOM-1')).toEqual([id]);
    await page.context().close();
  }, 60_000);
});
