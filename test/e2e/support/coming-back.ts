/**
 * The shopper leaves for the bank app and comes back, played the same way in every engine (Chromium through
 * playwright-core, Firefox through puppeteer-core, WebKit over WebDriver): a `Tab` only needs to run a function in
 * the page. The page is hidden, the phone cuts the event stream (as iOS does to a hidden page), the payment is paid
 * meanwhile, and the page is shown again: by `visibilitychange`, or by `pageshow` alone as a page restored from the
 * back-forward cache is. Polling is pushed out of reach first, so that only the re-check on coming back can have
 * brought the news. Or the shopper stays away past the expiry: back, the page says the time is up but that a
 * payment made is still being checked (the late screen), never that it failed.
 */
import { expect } from 'vitest';
import { act, pendingPaymentOf, sandboxPayments, shopOrder, waitFor } from './services.js';

/** A function's source and its arguments as one expression that any engine can evaluate. */
export const call = (fn: string, args: unknown[]) => `(${fn})(...${JSON.stringify(args)})`;

export interface Tab {
  /** Runs `fn` (a function's source) in the page with `args`, awaiting a promise it returns. */
  run<T>(fn: string, ...args: unknown[]): Promise<T>;
}

export type ComingBack = 'visibilitychange' | 'pageshow';

/** The element's public screen. */
export const screenOf = (tab: Tab) => tab.run<string | undefined>(`() => document.querySelector('payin-checkout')?.screen`);

export async function untilScreen(tab: Tab, screen: string, timeoutMs = 30_000): Promise<void> {
  await waitFor(`the checkout to show "${screen}"`, async () => ((await screenOf(tab)) === screen ? true : undefined), timeoutMs);
}

/**
 * Counts the event streams and status calls the element makes from now on. The element is put back into the page
 * (it resumes its payment from sessionStorage, with no second create) so that its next stream is counted too:
 * WebDriver has no script that runs before the page's own.
 */
export const WATCH = `() => {
  const Native = window.EventSource;
  window.__streams = [];
  window.EventSource = class extends Native {
    constructor(...args) { super(...args); window.__streams.push(this); }
  };
  window.__inFlight = 0;
  const nativeFetch = window.fetch.bind(window);
  window.fetch = (...args) => {
    window.__inFlight++;
    return nativeFetch(...args).finally(() => window.__inFlight--);
  };
  document.addEventListener('payin-paid', () => (window.__paidAt = performance.now()));
  const old = document.querySelector('payin-checkout');
  const again = old.cloneNode(true);
  old.replaceWith(again);
}`;

/** Hides the page, cuts its streams and lets the check that the cut starts finish. */
const LEAVE = `async (how) => {
  const el = document.querySelector('payin-checkout');
  el.pollInterval = 3600000; // no poll in this test's lifetime: only coming back may check
  Object.defineProperty(document, 'visibilityState', { configurable: true, get: () => 'hidden' });
  Object.defineProperty(document, 'hidden', { configurable: true, get: () => true });
  document.dispatchEvent(new Event('visibilitychange'));
  if (how === 'pageshow') window.dispatchEvent(new PageTransitionEvent('pagehide', { persisted: true }));
  for (const stream of window.__streams) {
    stream.close();
    stream.dispatchEvent(new Event('error'));
  }
  for (let i = 0; i < 100 && (i < 2 || window.__inFlight > 0); i++) await new Promise((r) => setTimeout(r, 10));
  return window.__inFlight;
}`;

const RETURN = `(how) => {
  Object.defineProperty(document, 'visibilityState', { configurable: true, get: () => 'visible' });
  Object.defineProperty(document, 'hidden', { configurable: true, get: () => false });
  window.__backAt = performance.now();
  if (how === 'visibilitychange') document.dispatchEvent(new Event('visibilitychange'));
  else window.dispatchEvent(new PageTransitionEvent('pageshow', { persisted: true }));
}`;

/**
 * On a checkout page that shows a pending payment of `orderId`: leaves, has the payer pay, comes back. Answers
 * how long "paid" took after coming back (ms, page clock) and how many event streams the element opened.
 */
export async function payWhileAway(
  tab: Tab,
  urls: { storeUrl: string; sandboxUrl: string },
  orderId: string,
  how: ComingBack,
): Promise<{ paidAfterMs: number; streams: number }> {
  await tab.run(WATCH);
  await untilScreen(tab, 'pay');
  await waitFor(
    'the event stream to open',
    async () => (await tab.run<boolean>(`() => window.__streams.some((s) => s.readyState === 1)`)) || undefined,
  );
  expect(await tab.run<number>(LEAVE, how), 'no status call still on its way when the payer pays').toBe(0);

  const payment = await pendingPaymentOf(urls.sandboxUrl, orderId);
  await act(urls.sandboxUrl, payment.id, 'pay');
  await waitFor('the shop to hear that the order is paid', async () =>
    (await shopOrder(urls.storeUrl, orderId)).status === 'paid' ? true : undefined,
  );
  expect(await screenOf(tab), 'away from the page, with its stream cut, the checkout has not heard yet').toBe('pay');

  await tab.run(RETURN, how);
  await untilScreen(tab, 'paid', 10_000);
  const paidAfterMs = await tab.run<number>(`() => window.__paidAt - window.__backAt`);
  const streams = await tab.run<number>(`() => window.__streams.length`);
  return { paidAfterMs, streams };
}

/**
 * On a checkout page of `orderId` whose payment expires within seconds (a short SANDBOX_TTL_SECONDS): leaves, stays
 * away until the service has expired the payment, comes back by `visibilitychange`. Answers the screen once the
 * re-check has brought the service's "expired".
 */
export async function backAfterExpiry(tab: Tab, sandboxUrl: string, orderId: string): Promise<string | undefined> {
  await tab.run(WATCH);
  await untilScreen(tab, 'pay');
  const payment = await pendingPaymentOf(sandboxUrl, orderId);
  await tab.run(LEAVE, 'visibilitychange');
  await waitFor('the service to expire the payment', async () =>
    (await sandboxPayments(sandboxUrl)).some((p) => p.id === payment.id && p.state === 'expired') ? true : undefined,
  );
  await tab.run(RETURN, 'visibilitychange');
  await waitFor('the re-check to bring "expired"', async () =>
    (await tab.run<string>(`() => document.querySelector('payin-checkout').payment?.state`)) === 'expired' ? true : undefined,
  );
  return screenOf(tab);
}
