/**
 * The console behind a framework that puts a slash at the end of every path (Next.js with `trailingSlash: true`):
 * the sign-in form's POST, the page's API calls and its actions come back to the console with the slash after a
 * 308, which the browser follows, body and all. Before, the sign-in answered 404 'no such console route'.
 */
import { describe, expect, it } from 'vitest';
import { consoleTokenAuth } from '../../src/console-api/token-login.js';
import { setup } from '../proxy/harness.js';

const TOKEN = 'a-console-token-of-some-length';
const ORIGIN = 'http://shop.test';

describe('the console with a slash after each path', () => {
  it('signs in, lists the payments and re-checks one', async () => {
    const w = setup({ console: consoleTokenAuth(TOKEN), clientId: () => 'client-1' });
    const { body } = await w.create();
    const fromPage = { 'sec-fetch-site': 'same-origin', origin: ORIGIN };
    const signIn = await w.proxy(
      new Request(`${ORIGIN}/payin/console/login/`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded', ...fromPage },
        body: new URLSearchParams({ token: TOKEN }).toString(),
      }),
    );
    expect(signIn.status).toBe(303);
    const cookie = signIn.headers.get('set-cookie')!.split(';')[0]!;

    const list = await w.proxy(new Request(`${ORIGIN}/payin/console/api/payments/`, { headers: { cookie, ...fromPage } }));
    expect(list.status).toBe(200);
    expect(((await list.json()) as { payments: { id: string }[] }).payments.map((p) => p.id)).toEqual([body.payment.id]);

    const session = await w.proxy(new Request(`${ORIGIN}/payin/console/api/session/`, { headers: { cookie, ...fromPage } }));
    expect(session.status).toBe(200);
    const { csrf } = (await session.json()) as { csrf: string };
    const csrfCookie = session.headers.get('set-cookie')!.split(';')[0]!;
    const recheck = await w.proxy(
      new Request(`${ORIGIN}/payin/console/api/payments/${body.payment.id}/recheck/`, {
        method: 'POST',
        headers: { cookie: `${cookie}; ${csrfCookie}`, 'x-payin-csrf': csrf, ...fromPage },
      }),
    );
    expect(recheck.status).toBe(200);
  });
});
