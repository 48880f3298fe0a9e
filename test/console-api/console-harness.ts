/**
 * A proxy over the fake service with the console turned on, and a browser-like operator: it carries the session
 * cookie and the CSRF token the page would, and sends Sec-Fetch-Site as a browser does. `asStranger` and
 * `fromOtherSite` make the requests a stranger or another site's page would.
 */
import type { ConsoleOptions } from '../../src/console-api/console-options.js';
import type { PayinProxyOptions } from '../../src/proxy/index.js';
import { ORIGIN, setup } from '../proxy/harness.js';

export const OPERATOR_HEADER = 'x-test-operator';

/** Lets in requests carrying the test's operator header: the shop's own session stands behind it. */
export const headerAuth: ConsoleOptions = {
  authorizeOperator: (request) => request.headers.get(OPERATOR_HEADER) === 'ana',
  operatorName: (request) => request.headers.get(OPERATOR_HEADER) ?? undefined,
};

export function consoleSetup(overrides: Partial<PayinProxyOptions> = {}) {
  const world = setup({ console: headerAuth, ...overrides });
  let csrf = '';
  let csrfCookie = '';

  /** `site: null` is a browser that sends no Sec-Fetch-Site (older ones). */
  const request = (path: string, init: RequestInit & { as?: 'operator' | 'stranger'; site?: string | null } = {}) => {
    const headers = new Headers(init.headers);
    if ((init.as ?? 'operator') === 'operator') headers.set(OPERATOR_HEADER, 'ana');
    if (init.site !== null) headers.set('sec-fetch-site', init.site ?? 'same-origin');
    if (csrfCookie) headers.set('cookie', csrfCookie);
    return world.proxy(new Request(`${ORIGIN}/payin/console${path}`, { ...init, headers }));
  };

  /** What the page does first: asks who it is and gets its CSRF token (cookie and value). */
  const signIn = async () => {
    const answer = await request('/api/session');
    const body = (await answer.json()) as { csrf: string };
    csrf = body.csrf;
    csrfCookie = (answer.headers.get('set-cookie') ?? '').split(';')[0]!;
    return answer;
  };

  const get = async <T = Record<string, unknown>>(path: string) => {
    const answer = await request(path);
    return { answer, body: (await answer.json()) as T };
  };

  const post = async <T = Record<string, unknown>>(path: string, body = '', headers: Record<string, string> = {}) => {
    const answer = await request(path, {
      method: 'POST',
      body,
      headers: { 'x-payin-csrf': csrf, origin: ORIGIN, 'content-type': 'application/x-www-form-urlencoded', ...headers },
    });
    const text = await answer.text();
    return { answer, text, body: (text.startsWith('{') ? JSON.parse(text) : {}) as T };
  };

  return { ...world, request, signIn, get, post };
}
