/**
 * The checkout in a frame of another site's page, on a phone: a shop whose pages live on one site and whose
 * checkout page (and proxy) on another frames it. A browser that blocks third-party storage refuses such a frame
 * the Web Locks that the tabs of one payment share the following with (Chromium here answers "SecurityError: The
 * request was denied"), and the element must then follow its payment alone, as where there are no Web Locks at
 * all. The host page is served here on 127.0.0.1, the storefront framed as localhost: two sites.
 */
import { createServer, type Server } from 'node:http';
import type { Frame } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newPhoneContext } from './support/phone.js';
import { act, pendingPaymentOf, placeOrder, sandboxPayments } from './support/services.js';
import { useDemo } from './support/use-demo.js';

const live = useDemo();
let host: Server;
let hostUrl: string;

beforeAll(async () => {
  // The page of the other site: one frame, of the address in its query.
  host = createServer((request, response) => {
    const framed = new URL(request.url!, 'http://127.0.0.1').searchParams.get('frame') ?? '';
    response.setHeader('content-type', 'text/html; charset=utf-8');
    response.end(
      `<!doctype html><title>Host</title><iframe title="checkout" src="${framed.replace(/"/g, '&quot;')}" width="360" height="1200"></iframe>`,
    );
  });
  await new Promise<void>((resolve) => host.listen(0, '127.0.0.1', resolve));
  hostUrl = `http://127.0.0.1:${(host.address() as { port: number }).port}/`;
});

afterAll(() => new Promise<void>((resolve) => host.close(() => resolve())));

/** Waits until the element in `frame` shows `screen` (its public `screen` property), as shopper.ts's waitForScreen does in a page. */
async function untilScreenIn(frame: Frame, screen: string, timeout: number): Promise<void> {
  await frame.waitForFunction(
    (wanted) => (document.querySelector('payin-checkout') as (Element & { screen?: string }) | null)?.screen === wanted,
    screen,
    { timeout },
  );
}

describe('the checkout in a frame of another site', () => {
  it('follows its payment though the browser refuses the frame Web Locks: pay screen, then paid', async () => {
    const context = await newPhoneContext(live.browser, 'android', live.demo.sandboxUrl);
    const page = await context.newPage();
    const order = await placeOrder(live.demo.storeUrl);
    const checkout = `${live.demo.storeUrl.replace('//127.0.0.1', '//localhost')}/shop/checkout/${encodeURIComponent(order.id)}?method=upi`;
    await page.goto(`${hostUrl}?frame=${encodeURIComponent(checkout)}`);
    const frame = await (await page.locator('iframe').elementHandle())!.contentFrame();
    await frame!.waitForFunction(() => document.querySelector('payin-checkout')?.shadowRoot);
    const refused = await frame!.evaluate(() =>
      navigator.locks.query().then(
        () => 'granted',
        (error: Error) => `${error.name}: ${error.message}`,
      ),
    );
    expect(refused, 'the case under test: the browser refuses Web Locks to the frame of another site').toMatch(/^SecurityError/);

    // Before: the payment was created and never followed (no status call, no stream): "Preparing payment details…" for good.
    await untilScreenIn(frame!, 'pay', 10_000);
    const payment = await pendingPaymentOf(live.demo.sandboxUrl, order.id);
    await act(live.demo.sandboxUrl, payment.id, 'pay');
    await untilScreenIn(frame!, 'paid', 20_000);
    expect((await sandboxPayments(live.demo.sandboxUrl)).filter((p) => p.orderId === order.id)).toHaveLength(1);
    await context.close();
  });
});
