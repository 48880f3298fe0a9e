/**
 * What a shopper does on an iPhone in WebKit, over WebDriver: open a checkout, tap in the element (real driver
 * clicks, so they are user gestures), open a payment app (the sandbox's /phone page plays it, as in the Chromium
 * phone suite: MiniBrowser cannot open upi:// or bank links, so a tap on one is sent there), and keep every screen
 * looked at under test-results/webkit/.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { untilScreen } from '../../support/coming-back.js';
import { CATCH_APP_LINKS } from '../../support/phone.js';
import { waitFor } from '../../support/services.js';
import type { WebDriverSession } from './webdriver.js';

const SHOTS = new URL('../../../../test-results/webkit/', import.meta.url);

export async function shoot(session: WebDriverSession, name: string): Promise<void> {
  mkdirSync(SHOTS, { recursive: true });
  writeFileSync(new URL(`${name}.png`, SHOTS), await session.screenshot());
}

/**
 * Opens the checkout of `orderId` and waits for `screen`. The element is told it is on a phone: WebKitGTK on a
 * desktop reports a fine pointer, where an iPhone's is coarse.
 */
export async function openCheckout(
  session: WebDriverSession,
  storeUrl: string,
  orderId: string,
  { method = 'upi', base = '/shop', screen = 'pay' } = {},
): Promise<void> {
  await session.navigate(`${storeUrl}${base}/checkout/${encodeURIComponent(orderId)}?method=${method}`);
  await asIphone(session);
  await untilScreen(session, screen);
}

export async function asIphone(session: WebDriverSession): Promise<void> {
  await waitFor('the element', () => session.run<boolean>(`() => !!customElements.get('payin-checkout')`).then((ok) => ok || undefined));
  await session.run(`() => document.querySelector('payin-checkout').setAttribute('platform', 'ios')`);
}

/** Taps the element's part (or any selector in its shadow root). */
export async function tap(session: WebDriverSession, css: string): Promise<void> {
  // Waited for: a part's control (a bank of the chooser) is drawn once its part and the bank list have loaded, which
  // on a busy machine comes well after the pay screen.
  await session.click(await waitFor(`${css} in the element`, () => session.find(['payin-checkout'], css)));
}

export const elementPayment = (session: WebDriverSession) =>
  session.run<{ id: string; outcome: string; qr?: string } | undefined>(`() => document.querySelector('payin-checkout').payment`);

/**
 * Sends the next tap on an app or bank link (a link that is not a web page) to the sandbox's phone page, a moment
 * later, as a phone opens the app with the page still loaded (the same catcher as the Chromium phone suite's).
 */
export async function catchAppLinks(session: WebDriverSession, sandboxUrl: string): Promise<void> {
  await session.run(CATCH_APP_LINKS, `${sandboxUrl}/phone?link=`);
}

/** Taps an app or bank link in the element and waits for the app (the phone page) to show its payment. */
export async function openApp(session: WebDriverSession, sandboxUrl: string, linkCss: string): Promise<void> {
  await catchAppLinks(session, sandboxUrl);
  await tap(session, linkCss);
  await waitFor('the payment app to open', async () => ((await session.url()).startsWith(`${sandboxUrl}/phone?`) ? true : undefined));
  await waitFor('the app to show the payment', () =>
    session.run<boolean>(`() => document.querySelectorAll('button.pay').length === 1`).then((ok) => ok || undefined),
  );
}

/** In the app: Pay or Cancel, and the app says it was done. */
export async function inApp(session: WebDriverSession, action: 'pay' | 'cancel'): Promise<void> {
  await session.click(await session.find([], `button.${action}`));
  const done = action === 'pay' ? 'Paid.' : 'Cancelled.';
  await waitFor(`the app to say "${done}"`, () =>
    session.run<boolean>(`(done) => document.getElementById('status').textContent.startsWith(done)`, done).then((ok) => ok || undefined),
  );
}

/** Where the app's "Back to the shop" leads: the shop's return URL, or null for the browser's Back. */
export const backTarget = (session: WebDriverSession) => session.run<string | null>(`() => document.getElementById('back').href || null`);

/**
 * Copies a value with its copy button (a real tap: `label` is the id of the value's label, `amount-label` or
 * `address-label`) and pastes what the clipboard then holds into a field of the page.
 */
export async function copyAndPaste(session: WebDriverSession, label: string): Promise<string> {
  const button = `[part~="copy-button"][aria-labelledby~="${label}"]`;
  await tap(session, button);
  await waitFor('the copy button to say "Copied"', () =>
    session
      .run<boolean>(`(css) => /Copied/.test(document.querySelector('payin-checkout').shadowRoot.querySelector(css).textContent)`, button)
      .then((ok) => ok || undefined),
  );
  await session.run(`() => { const i = document.createElement('input'); i.id = 'paste-here'; document.body.prepend(i); }`);
  await session.click(await session.find([], '#paste-here'));
  await session.keys(['\uE009', 'v']);
  return session.run<string>(`() => { const i = document.getElementById('paste-here'); const v = i.value; i.remove(); return v; }`);
}
