/**
 * The operator's console in Chromium when the browser sees the shop under /shop, which a front server takes off
 * before the shop (and the proxy in it, mounted at /payin) sees the request: what Next's basePath does, and nginx's
 * `location /shop/ { proxy_pass http://shop/; }`. Against the built proxy, its SQLite ledger and the sandbox
 * (support/console-world.ts). Every request the page makes, its stylesheet, script, sign-in form, redirect and
 * API calls, must stay inside /shop/payin/ and be answered. Before, the login page's stylesheet and form pointed at
 * /payin/console/..., which the front answers 404, and the operator could not sign in.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { signInToConsole } from './support/console-world.js';
import { useConsoleWorld } from './support/use-console-world.js';
import { pendingPaymentOf } from './support/services.js';

const requests: { url: string; status: number }[] = [];

const live = useConsoleWorld({ underPrefix: '/shop' });
beforeAll(() => {
  live.page.on('response', (response) => void requests.push({ url: response.url(), status: response.status() }));
});

describe('the console under /shop, which the shop never sees', () => {
  it('signs in, lists, opens a payment and re-checks it, every request inside /shop/payin/', async () => {
    const { id } = await live.world.createPayment('MB-1');
    await pendingPaymentOf(live.world.sandboxUrl, 'MB-1');
    const { consoleUrl } = live;
    await signInToConsole(live.page, consoleUrl);
    expect(live.page.url()).toBe(consoleUrl);

    await live.page.getByLabel('Order id or payment id').fill('MB-1');
    await live.page.getByRole('button', { name: 'Find' }).click();
    await live.page.getByRole('button', { name: id, exact: true }).click();
    await live.page.getByRole('heading', { name: `Payment ${id}` }).waitFor();
    await live.page.getByRole('button', { name: 'Re-check now' }).click();
    await live.page
      .getByRole('status')
      .getByText(/Re-check now: /)
      .waitFor();

    const inside = `${live.world.publicUrl}/payin/`;
    // The one answer of 4xx: the login page, which the console serves with 401 before sign-in.
    const refused = requests.filter((r) => r.status >= 400 && !(r.status === 401 && r.url === consoleUrl));
    expect([requests.filter((r) => !r.url.startsWith(inside)), refused]).toEqual([[], []]);
    for (const route of ['/console.css', '/console.js', '/login', '/api/session', '/api/payments', `/api/payments/${id}/recheck`]) {
      expect(
        requests.some((r) => new URL(r.url).pathname.startsWith(`${new URL(inside).pathname}console${route}`)),
        route,
      ).toBe(true);
    }
    const session = (await live.context.cookies()).find((c) => c.name === 'payin_console');
    expect(session?.path).toBe('/shop/payin/console');
    // Nothing left /shop, not even Chromium's own ask for /favicon.ico: the page names its icon.
    expect(live.world.refusedByFront).toEqual([]);
  });
});
