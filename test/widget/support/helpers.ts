/**
 * What the widget tests share: a private scenario of the fake proxy per test, waits that always have a bound,
 * and short ways to look into the element's shadow root.
 */
import { fixture, html, waitUntil } from '@open-wc/testing';
import { ifDefined } from 'lit/directives/if-defined.js';
import { type Clock, systemClock } from '../../../src/shared/clock.js';
import '../../../src/widget/index.js';
import type { PaymentView } from '../../../src/shared/payment-view.js';
import type { PayinEventMap } from '../../../src/widget/events.js';
import type { PayinCheckout } from '../../../src/widget/index.js';
import type { Screen } from '../../../src/widget/views/view-context.js';

let counter = 0;
const run = Math.random().toString(36).slice(2, 8);

export const uid = (prefix: string) => `${prefix}-${run}-${++counter}`;

export interface FakeStats {
  creates: number;
  newPayments: number;
  status: number;
  streams: number;
  statusTimes: number[];
  /** GET /sbp-banks answered. */
  bankLists: number;
}

/** A scenario of the fake proxy (test/widget/support/fake-proxy.mjs) that only this test uses. */
export async function fakeScenario(options: Record<string, unknown> = {}) {
  const name = uid('s');
  const base = `/fake/${name}`;
  const control = async (body?: unknown) => {
    const answer = await fetch(`${base}/__control`, {
      method: body ? 'POST' : 'GET',
      headers: { 'content-type': 'application/json' },
      body: body ? JSON.stringify(body) : undefined,
    });
    if (!answer.ok) throw new Error(`fake control answered ${answer.status}`);
    return answer.json();
  };
  await control({ options });
  return {
    endpoint: `${base}/payin`,
    configure: (next: Record<string, unknown>) => control({ options: next }),
    /** Moves the latest (or the given) payment: `{state}`, `{amount}` (paid differently), `{expiresInMs}`. */
    set: (change: { state?: string; amount?: string; expiresInMs?: number; paymentId?: string }) => control(change),
    /** Another payment of the order paid it: the open streams say `order-paid` and end. */
    orderPaid: () => control({ orderPaid: true }),
    stats: async (): Promise<FakeStats> => (await control()).stats,
    payments: async (): Promise<PaymentView[]> => (await control()).payments,
  };
}

/** Resolves with the value once `promise` settles, or fails naming what did not happen in time. */
export function within<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: ReturnType<typeof setTimeout>;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`timed out after ${ms} ms waiting for ${what}`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

/** The next `name` event of `target`, within `ms`. */
export function nextEvent<K extends keyof PayinEventMap>(target: EventTarget, name: K, ms = 8000): Promise<PayinEventMap[K]> {
  return within(
    new Promise((resolve) => target.addEventListener(name, (e) => resolve(e as PayinEventMap[K]), { once: true })),
    ms,
    `the ${name} event`,
  );
}

/** Records every event of the element, in order. */
export function recordEvents(el: EventTarget): { name: string; detail: any }[] {
  const names: (keyof PayinEventMap)[] = [
    'payin-created',
    'payin-state',
    'payin-paid',
    'payin-underpaid',
    'payin-superseded',
    'payin-expired',
    'payin-failed',
    'payin-error',
  ];
  const log: { name: string; detail: any }[] = [];
  for (const name of names) el.addEventListener(name, (e) => log.push({ name, detail: (e as CustomEvent).detail }));
  return log;
}

export async function untilScreen(el: PayinCheckout, screen: Screen, ms = 8000): Promise<void> {
  await waitUntil(() => el.screen === screen, `screen ${screen} (shown: ${el.screen})`, { timeout: ms, interval: 20 });
  await el.updateComplete;
}

export function part<T extends Element = HTMLElement>(el: PayinCheckout, name: string): T | null {
  return el.shadowRoot!.querySelector<T>(`[part~="${name}"]`);
}

export function parts<T extends Element = HTMLElement>(el: PayinCheckout, name: string): T[] {
  return [...el.shadowRoot!.querySelectorAll<T>(`[part~="${name}"]`)];
}

export function text(el: PayinCheckout): string {
  return (el.shadowRoot!.textContent ?? '').replace(/\s+/g, ' ').trim();
}

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export async function mount(
  endpoint: string,
  attrs: {
    orderId?: string;
    method?: string;
    methods?: string;
    lang?: string;
    autostart?: boolean;
    pollInterval?: number;
    platform?: string;
    upiApps?: string;
    noRemember?: boolean;
    /** The clock the element runs on (a ManualClock in the tests that move time). */
    clock?: Clock;
  } = {},
) {
  const el = await fixture<PayinCheckout>(html`<payin-checkout
    .clock=${attrs.clock ?? systemClock}
    platform=${attrs.platform ?? ''}
    upi-apps=${ifDefined(attrs.upiApps)}
    ?no-remember=${attrs.noRemember ?? false}
    endpoint=${endpoint}
    order-id=${attrs.orderId ?? uid('order')}
    method=${attrs.method ?? ''}
    methods=${attrs.methods ?? ''}
    lang=${attrs.lang ?? 'en'}
    poll-interval=${attrs.pollInterval ?? 200}
    ?autostart=${attrs.autostart ?? false}
  ></payin-checkout>`);
  return el;
}

export interface FramedPage {
  frame: HTMLIFrameElement;
  /** The element in the frame's current page. */
  el(): PayinCheckout;
  events(): { name: string; detail: any }[];
  violations(): string[];
  /** A real reload of the frame's page (sessionStorage is the top-level tab's, so it survives). */
  reload(): Promise<void>;
  remove(): void;
}

/** Loads test/widget/fixtures/frame.html with the element's attributes in the query (and a strict CSP on `csp`). */
export async function openFrame(attrs: Record<string, string>, csp = false): Promise<FramedPage> {
  const frame = document.createElement('iframe');
  frame.title = 'checkout frame';
  frame.width = '600';
  frame.height = '800';
  const query = new URLSearchParams(attrs);
  if (csp) query.set('csp', '');
  const loaded = () =>
    within(new Promise<void>((resolve) => frame.addEventListener('load', () => resolve(), { once: true })), 10_000, 'the frame to load');
  const first = loaded();
  frame.src = `/test/widget/fixtures/frame.html?${query}`;
  document.body.append(frame);
  await first;
  const win = () => frame.contentWindow as unknown as { checkout: PayinCheckout; events: any[]; violations: string[] };
  const ready = () => waitUntil(() => win().checkout, 'the element in the frame', { timeout: 10_000 });
  await ready();
  return {
    frame,
    el: () => win().checkout,
    events: () => win().events,
    violations: () => win().violations,
    async reload() {
      const next = loaded();
      frame.contentWindow!.location.reload();
      await next;
      await ready();
    },
    remove: () => frame.remove(),
  };
}
