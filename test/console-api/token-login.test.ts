import { describe, expect, it } from 'vitest';
import { consoleTokenAuth } from '../../src/console-api/token-login.js';
import { setup } from '../proxy/harness.js';

const TOKEN = 'a-console-token-of-some-length';

/** What the login form says in its alert, as HTML. */
const alertOf = (page: string) => /<p role="alert" class="error">(.*?)<\/p>/s.exec(page)?.[1];

function world(origin = 'http://shop.test') {
  // Sessions are issued and expire on the test's clock.
  const w = setup({
    console: consoleTokenAuth(TOKEN, { now: () => w.clock.now() }),
    // One client, unless a test speaks for many.
    clientId: (request) => request.headers.get('x-test-client') ?? 'client-1',
  });
  const login = (token: string) =>
    w.proxy(
      new Request(`${origin}/payin/console/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded', 'sec-fetch-site': 'same-origin', origin },
        body: new URLSearchParams({ token }).toString(),
      }),
    );
  const get = (path: string, cookie?: string) =>
    w.proxy(new Request(`${origin}/payin/console${path}`, { headers: cookie ? { cookie } : {} }));
  return { ...w, login, get };
}

/** Signs `session` out as its page does: with the CSRF token the console's API hands it. */
async function signOut(w: ReturnType<typeof world>, session: string): Promise<Response> {
  const asked = await w.proxy(
    new Request('http://shop.test/payin/console/api/session', { headers: { cookie: session, 'sec-fetch-site': 'same-origin' } }),
  );
  const { csrf } = (await asked.json()) as { csrf: string };
  const csrfCookie = asked.headers.get('set-cookie')!.split(';')[0]!;
  return w.proxy(
    new Request('http://shop.test/payin/console/logout', {
      method: 'POST',
      headers: { cookie: `${session}; ${csrfCookie}`, 'sec-fetch-site': 'same-origin', 'x-payin-csrf': csrf },
    }),
  );
}

describe('the console token login', () => {
  it('shows the login form to a stranger, and its API answers 401', async () => {
    const w = world();
    const page = await w.get('');
    expect(page.status).toBe(401);
    expect(page.headers.get('content-security-policy')).toContain("script-src 'self'");
    // Relative to the page at /payin/console: it holds under a prefix the proxy cannot see (mounted-below.test.ts).
    expect(await page.text()).toContain('<form method="post" action="./console/login">');
    expect((await w.get('/api/payments')).status).toBe(401);
  });

  it('signs in with the right token: an HttpOnly, SameSite=Strict session cookie, the token in no URL or cookie', async () => {
    const w = world();
    const answer = await w.login(TOKEN);
    expect(answer.status).toBe(303);
    expect(new URL(answer.headers.get('location')!, 'http://shop.test/payin/console/login').pathname).toBe('/payin/console');
    const setCookie = answer.headers.get('set-cookie')!;
    expect(setCookie).toMatch(
      /^payin_console=\d+\.[\w-]{16}\.[0-9a-f]{64}; Path=\/payin\/console; HttpOnly; SameSite=Strict; Max-Age=43200$/,
    );
    expect(setCookie).not.toContain(TOKEN);
    const cookie = setCookie.split(';')[0]!;
    expect((await w.get('/api/payments', cookie)).status).toBe(200);
    expect((await w.get('', cookie)).status).toBe(200);
    // A forged or expired session is refused (its last digit changed, so that it never equals the real one).
    const forged = `${cookie.slice(0, -1)}${cookie.endsWith('0') ? '1' : '0'}`;
    expect((await w.get('/api/payments', forged)).status).toBe(401);
  });

  it('marks the cookie Secure on https', async () => {
    const w = world('https://shop.test');
    expect((await w.login(TOKEN)).headers.get('set-cookie')).toContain('; Secure');
  });

  it('marks the cookies Secure behind a proxy that ends TLS, and not on plain http', async () => {
    // The request reaches the proxy as http; the browser's page is https.
    const behindTls = world('http://shop.test');
    const signIn = (origin: string, headers: Record<string, string> = {}) =>
      behindTls.proxy(
        new Request('http://shop.test/payin/console/login', {
          method: 'POST',
          headers: { 'content-type': 'application/x-www-form-urlencoded', 'sec-fetch-site': 'same-origin', origin, ...headers },
          body: new URLSearchParams({ token: TOKEN }).toString(),
        }),
      );
    const session = (await signIn('https://shop.test')).headers.get('set-cookie')!;
    expect(session).toContain('; Secure');
    expect((await signIn('http://shop.test', { 'x-forwarded-proto': 'https' })).headers.get('set-cookie')).toContain('; Secure');
    expect((await signIn('http://shop.test')).headers.get('set-cookie')).not.toContain('Secure');
    // The CSRF cookie, set by the page's same-origin fetch, which carries the page's address as its Referer.
    const csrf = await behindTls.proxy(
      new Request('http://shop.test/payin/console/api/session', {
        headers: { cookie: session.split(';')[0]!, 'sec-fetch-site': 'same-origin', referer: 'https://shop.test/payin/console' },
      }),
    );
    expect(csrf.status).toBe(200);
    expect(csrf.headers.get('set-cookie')).toMatch(/^payin_console_csrf=[\w-]+; .*; Secure$/);
  });

  it("signs in and acts behind a web server that sends its own upstream address as Host (nginx's plain proxy_pass)", async () => {
    // The browser is on https://shop.test; nginx, without proxy_set_header Host, hands the request on addressed to
    // the upstream's 127.0.0.1:8787. The browser says the request is its page's own (Sec-Fetch-Site).
    const w = world('http://127.0.0.1:8787');
    const page = 'https://shop.test';
    const send = (path: string, init: RequestInit & { headers: Record<string, string> }) =>
      w.proxy(
        new Request(`http://127.0.0.1:8787/payin/console${path}`, {
          ...init,
          headers: { 'sec-fetch-site': 'same-origin', ...init.headers },
        }),
      );
    const signedIn = await send('/login', {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', origin: page },
      body: new URLSearchParams({ token: TOKEN }).toString(),
    });
    expect(signedIn.status).toBe(303);
    const session = signedIn.headers.get('set-cookie')!.split(';')[0]!;
    const asked = await send('/api/session', { headers: { cookie: session, referer: `${page}/payin/console` } });
    expect(asked.status).toBe(200);
    const { csrf } = (await asked.json()) as { csrf: string };
    const csrfCookie = asked.headers.get('set-cookie')!.split(';')[0]!;
    const exported = await send('/api/export', {
      method: 'POST',
      headers: {
        cookie: `${session}; ${csrfCookie}`,
        origin: page,
        'x-payin-csrf': csrf,
        'content-type': 'application/x-www-form-urlencoded',
      },
      body: 'filter=all',
    });
    expect(exported.status).toBe(200);
  });

  it('ends the session on the server when the operator signs out: a copy of its cookie is refused from then on', async () => {
    const w = world();
    const session = (await w.login(TOKEN)).headers.get('set-cookie')!.split(';')[0]!;
    // Another operator signs in within the same second: a session of their own.
    const other = (await w.login(TOKEN)).headers.get('set-cookie')!.split(';')[0]!;
    expect(other).not.toBe(session);
    expect((await signOut(w, session)).status).toBe(200);
    // A copy taken before (another browser's, a stolen one) no longer opens the console or its API.
    expect((await w.get('/api/payments', session)).status).toBe(401);
    expect((await w.get('', session)).status).toBe(401);
    // Another sign-in's session is its own.
    expect((await w.get('/api/payments', other)).status).toBe(200);
  });

  it('keeps a session shut once signed out, however many other clients the store counts meanwhile', async () => {
    const w = world();
    const session = (await w.login(TOKEN)).headers.get('set-cookie')!.split(';')[0]!;
    const other = (await w.login(TOKEN)).headers.get('set-cookie')!.split(';')[0]!;
    expect((await signOut(w, session)).status).toBe(200);
    // A busy shop, or strangers from many addresses: the status calls of 10,000 clients, each counted in the store.
    for (let i = 0; i < 10_000; i++) await w.post('/status', { paymentId: 'P-1', token: 'x' }, { 'x-test-client': `shopper-${i}` });
    // The copy kept elsewhere still opens nothing.
    expect((await w.get('/api/payments', session)).status).toBe(401);
    expect((await w.get('', session)).status).toBe(401);
    // A session the memory store has forgotten since is shut too: its operator signs in again.
    expect((await w.get('/api/payments', other)).status).toBe(401);
    // And a copy of it posted to the sign-out (its CSRF cookie and header of the poster's making) opens nothing either.
    const shut = await w.proxy(
      new Request('http://shop.test/payin/console/logout', {
        method: 'POST',
        headers: { cookie: `${other}; payin_console_csrf=made-up`, 'sec-fetch-site': 'same-origin', 'x-payin-csrf': 'made-up' },
      }),
    );
    expect(shut.status).toBe(200);
    expect((await w.get('/api/payments', other)).status).toBe(401);
    expect((await w.login(TOKEN)).status).toBe(303);
  });

  it("keeps an idle operator's session open while 10,000 other clients' counts come and expire", async () => {
    const w = world();
    const session = (await w.login(TOKEN)).headers.get('set-cookie')!.split(';')[0]!;
    // A busy shop over twenty minutes, the console left unused: 500 new shoppers a minute, each one's count of
    // status calls dead a minute later. The store's 10,000 counters fill with dead counts and the session.
    for (let minute = 0; minute < 20; minute++) {
      for (let i = 0; i < 500; i++)
        await w.post('/status', { paymentId: 'P-1', token: 'x' }, { 'x-test-client': `shopper-${minute}-${i}` });
      await w.clock.advance(61_000);
    }
    // The counts that went on past the bound pushed out dead ones, not the operator.
    expect((await w.get('/api/payments', session)).status).toBe(200);
  });

  it('tells an operator whose browser does not say where a request comes from that the Host header is not passed on', async () => {
    // A browser without Sec-Fetch-Site: only its Origin and the Host that arrived can be compared.
    const w = world('http://127.0.0.1:8787');
    const answer = await w.proxy(
      new Request('http://127.0.0.1:8787/payin/console/login', {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded', origin: 'https://shop.test' },
        body: new URLSearchParams({ token: TOKEN }).toString(),
      }),
    );
    expect(answer.status).toBe(403);
    expect(answer.headers.get('content-type')).toMatch(/^text\/html/);
    const text = await answer.text();
    expect(text).toContain('<form method="post" action="./login">');
    expect(text).toContain('proxy_set_header Host');
  });

  it('tells a wrong token in both languages of the form', async () => {
    const answer = await world().login('wrong');
    expect(answer.status).toBe(401);
    expect(alertOf(await answer.text())).toBe('That is not the console token. <span lang="ru">Это не токен консоли.</span>');
  });

  it('refuses a wrong token, and after ten wrong ones refuses even the right one for a while', async () => {
    const w = world();
    for (let i = 0; i < 10; i++) expect((await w.login(`wrong-${i}`)).status).toBe(401);
    const limited = await w.login(TOKEN);
    expect(limited.status).toBe(429);
    expect(limited.headers.get('retry-after')).toBe('900');
    // In both of the form's languages, as its label and button are.
    expect(alertOf(await limited.text())).toBe(
      'Too many wrong tokens: wait a few minutes. <span lang="ru">Слишком много неверных токенов: подождите несколько минут.</span>',
    );
    await w.clock.advance(15 * 60_000);
    expect((await w.login(TOKEN)).status).toBe(303);
  });

  it('counts wrong tokens sent all at once: a burst of guesses gets no more tries than one at a time', async () => {
    // Every guess is in flight before the first is answered, as many connections opened together would be.
    const w = world();
    const answers = await Promise.all(Array.from({ length: 40 }, (_, i) => w.login(`guess-${i}`)));
    const tried = answers.filter((a) => a.status === 401).length;
    expect(tried).toBeLessThanOrEqual(10);
    expect(answers.filter((a) => a.status === 429).length).toBe(40 - tried);
    expect((await w.login(TOKEN)).status).toBe(429);
  });

  it('never counts a right token as a wrong try: an operator may sign in as often as they like', async () => {
    const w = world();
    for (let i = 0; i < 12; i++) expect((await w.login(TOKEN)).status).toBe(303);
    for (let i = 0; i < 10; i++) expect((await w.login(`wrong-${i}`)).status).toBe(401);
    expect((await w.login(TOKEN)).status).toBe(429);
  });

  it('refuses a login posted from another site', async () => {
    const w = world();
    const answer = await w.proxy(
      new Request('http://shop.test/payin/console/login', {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded', 'sec-fetch-site': 'cross-site', origin: 'https://evil.test' },
        body: `token=${TOKEN}`,
      }),
    );
    expect(answer.status).toBe(403);
  });

  it('keeps the login form, with a message, when the ledger cannot be reached: never a page of raw JSON', async () => {
    const w = world();
    w.store.count = () => Promise.reject(new Error('the database is down'));
    const answer = await w.login(TOKEN);
    expect(answer.status).toBe(503);
    expect(answer.headers.get('content-type')).toMatch(/^text\/html/);
    expect(answer.headers.get('retry-after')).toBeTruthy();
    const page = await answer.text();
    expect(page).toContain('<form method="post" action="./login">');
    expect(alertOf(page)).toBe(
      'The payment ledger cannot be reached just now: try again in a minute. <span lang="ru">Журнал платежей сейчас недоступен: попробуйте через минуту.</span>',
    );
  });

  it('refuses a short token at start', () => {
    expect(() => consoleTokenAuth('short')).toThrow(/at least 16/);
  });

  it('takes an environment variable as docs/console.md passes it, and says when it is unset', () => {
    delete process.env.PAYIN_CONSOLE_TOKEN_NEVER_SET;
    expect(() => consoleTokenAuth(process.env.PAYIN_CONSOLE_TOKEN_NEVER_SET)).toThrow(/no console token given/);
    expect(() => consoleTokenAuth('   ')).toThrow(/no console token given/);
  });
});
