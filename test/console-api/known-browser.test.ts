/**
 * Strangers cannot keep the operator out of the token sign-in. Wrong tokens are limited per client (10 in 15
 * minutes) and for the whole console (100), so that guesses from many addresses get nowhere; but the whole
 * console's count is everyone's, so ten addresses sending ten wrong tokens each refused the operator's right
 * token too, for as long as they kept it up. A browser that has opened the console signed in keeps a mark of it
 * (a cookie signed under the token), and its sign-ins are counted against its own tries instead.
 */
import { describe, expect, it } from 'vitest';
import { consoleTokenAuth } from '../../src/console-api/token-login.js';
import { setup } from '../proxy/harness.js';

const TOKEN = 'a-console-token-of-some-length';

function world() {
  // The sessions and marks expire on the test's clock.
  const w = setup({
    console: consoleTokenAuth(TOKEN, { now: () => w.clock.now() }),
    clientId: (request) => request.headers.get('x-test-client') ?? 'unknown',
  });
  /** A sign-in from `client`, with the browser's `cookie` when it has one. */
  const login = (client: string, token: string, cookie?: string) =>
    w.proxy(
      new Request('http://shop.test/payin/console/login', {
        method: 'POST',
        headers: {
          'content-type': 'application/x-www-form-urlencoded',
          'sec-fetch-site': 'same-origin',
          'x-test-client': client,
          ...(cookie ? { cookie } : {}),
        },
        body: new URLSearchParams({ token }).toString(),
      }),
    );
  /** The console's page, as the browser loads it after a sign-in: the cookies it is given. */
  const openConsole = async (client: string, cookie: string) => {
    const page = await w.proxy(new Request('http://shop.test/payin/console', { headers: { cookie, 'x-test-client': client } }));
    expect(page.status).toBe(200);
    return page.headers.get('set-cookie');
  };
  /** Ten strangers, ten wrong tokens each: the whole console's tries for this quarter of an hour. */
  const strangersTryEverything = async () => {
    for (let client = 0; client < 10; client++) {
      for (let i = 0; i < 10; i++) expect((await login(`stranger-${client}`, `guess-${i}`)).status).toBe(401);
    }
  };
  return { ...w, login, openConsole, strangersTryEverything };
}

const cookieOf = (setCookie: string | null | undefined) => setCookie?.split(';')[0] ?? '';

describe('an operator whose browser has signed in before', () => {
  it('still signs in while strangers have used up the whole console’s tries; a new browser waits', async () => {
    const w = world();
    const session = cookieOf((await w.login('office', TOKEN)).headers.get('set-cookie'));
    const mark = await w.openConsole('office', session);
    await w.strangersTryEverything();
    expect((await w.login('stranger-10', 'guess')).status).toBe(429);
    // The session ended (12 h later), and the browser signs in again, from another address even.
    await w.clock.advance(13 * 60 * 60_000);
    await w.strangersTryEverything();
    expect((await w.login('home', TOKEN, cookieOf(mark))).status).toBe(303);
    // Without the mark nothing tells the operator from a guesser: the whole console's count holds.
    expect((await w.login('home', TOKEN)).status).toBe(429);
    // Kept for 90 days, for the console's path only, never to scripts or other sites.
    expect(mark).toMatch(
      /^payin_console_known=\d+\.[\w-]{16}\.[0-9a-f]{64}; Path=\/payin\/console; HttpOnly; SameSite=Strict; Max-Age=7776000$/,
    );
  });

  it('gets ten wrong tries with the mark, however many addresses send it: a stolen mark adds no guesses', async () => {
    const w = world();
    const session = cookieOf((await w.login('office', TOKEN)).headers.get('set-cookie'));
    const mark = cookieOf(await w.openConsole('office', session));
    for (let i = 0; i < 10; i++) expect((await w.login(`bot-${i}`, `guess-${i}`, mark)).status).toBe(401);
    expect((await w.login('bot-10', 'guess', mark)).status).toBe(429);
    expect((await w.login('bot-11', TOKEN, mark)).status).toBe(429);
  });

  it('takes a forged or expired mark for none', async () => {
    const w = world();
    const session = cookieOf((await w.login('office', TOKEN)).headers.get('set-cookie'));
    const mark = cookieOf(await w.openConsole('office', session));
    const forged = `${mark.slice(0, -1)}${mark.endsWith('0') ? '1' : '0'}`;
    await w.strangersTryEverything();
    expect((await w.login('office', TOKEN, forged)).status).toBe(429);
    await w.clock.advance(91 * 24 * 60 * 60_000);
    await w.strangersTryEverything();
    expect((await w.login('office', TOKEN, mark)).status).toBe(429);
  });

  it('stays known for 90 days after it last opened the console, not after its first mark', async () => {
    const w = world();
    const day = 24 * 60 * 60_000;
    const session = cookieOf((await w.login('office', TOKEN)).headers.get('set-cookie'));
    let mark = cookieOf(await w.openConsole('office', session));
    // The operator signs in again on day 89 and opens the console: the browser keeps what it is given.
    await w.clock.advance(89 * day);
    const again = cookieOf((await w.login('office', TOKEN, mark)).headers.get('set-cookie'));
    mark = cookieOf(await w.openConsole('office', `${again}; ${mark}`)) || mark;
    // Two days later, while strangers have used up the whole console's tries, that browser still signs in.
    await w.clock.advance(2 * day);
    await w.strangersTryEverything();
    expect((await w.login('office', TOKEN, mark)).status).toBe(303);
  });

  it('is marked once: a page load with a good mark sets no cookie, and a sign-in made through the shop’s own sign-in none at all', async () => {
    const w = world();
    const session = cookieOf((await w.login('office', TOKEN)).headers.get('set-cookie'));
    const mark = cookieOf(await w.openConsole('office', session));
    expect(await w.openConsole('office', `${session}; ${mark}`)).toBeNull();
    const shop = setup({ console: { authorizeOperator: () => true } });
    const page = await shop.proxy(new Request('http://shop.test/payin/console'));
    expect(page.status).toBe(200);
    expect(page.headers.get('set-cookie')).toBeNull();
  });
});
