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

  /** `site: null` is a browser too old to send Sec-Fetch-Site. */
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

  const post = async <T = Record<string, unknown>>(path: string, body = '', headers: Record<string, string> = {}, site?: string | null) => {
    const answer = await request(path, {
      method: 'POST',
      body,
      ...(site === undefined ? {} : { site }),
      headers: { 'x-payin-csrf': csrf, origin: ORIGIN, 'content-type': 'application/x-www-form-urlencoded', ...headers },
    });
    const text = await answer.text();
    return { answer, text, body: (text.startsWith('{') ? JSON.parse(text) : {}) as T };
  };

  return { ...world, request, signIn, get, post };
}

/**
 * An operator's browser on a console served over HTTP (a live proxy on a loopback socket): it sends the operator
 * header the shop's session stands for (`as`: another operator, or `null` for a stranger), asks for its CSRF token
 * first as the page does, and carries it with every action.
 */
export function operatorOverHttp(proxyUrl: string, name: string | null) {
  const base = `${proxyUrl}/payin/console`;
  let csrf = '';
  let csrfCookie = '';
  const send = (path: string, init: RequestInit & { site?: string } = {}) => {
    const headers = new Headers(init.headers);
    if (name !== null) headers.set(OPERATOR_HEADER, name);
    headers.set('sec-fetch-site', init.site ?? 'same-origin');
    if (csrfCookie) headers.set('cookie', csrfCookie);
    return fetch(`${base}${path}`, { ...init, headers });
  };
  return {
    async signIn() {
      const answer = await send('/api/session');
      csrf = ((await answer.json()) as { csrf: string }).csrf;
      csrfCookie = (answer.headers.get('set-cookie') ?? '').split(';')[0]!;
    },
    async get<T = Record<string, unknown>>(path: string) {
      const answer = await send(path);
      return { answer, body: (await answer.json()) as T };
    },
    /** An action: a form POST with the CSRF token (`csrf` replaces it: a forged request's guess). */
    async post<T = Record<string, unknown>>(
      path: string,
      form: Record<string, string> = {},
      { csrf: token = csrf, site }: { csrf?: string; site?: string } = {},
    ) {
      const answer = await send(path, {
        method: 'POST',
        body: new URLSearchParams(form).toString(),
        headers: { 'x-payin-csrf': token, origin: proxyUrl, 'content-type': 'application/x-www-form-urlencoded' },
        ...(site ? { site } : {}),
      });
      const text = await answer.text();
      return { answer, text, body: (text.startsWith('{') ? JSON.parse(text) : {}) as T };
    },
  };
}
