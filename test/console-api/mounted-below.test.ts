/**
 * The operator's console when the browser sees the proxy under a longer path than it is mounted at: Next's
 * basePath, or a front server that strips a prefix (here a loopback one that strips /shop, test/support/
 * prefix-front.ts). The operator signs in with the token, lists, opens a payment and acts on it, all through the
 * front, the way a browser goes: each link, form action, script and redirect resolved against the page's own
 * address, cookies sent back only under their Path. Before, they all pointed at /payin/console..., outside /shop,
 * and the front answered 404; and the session cookie's Path left it out of every request under /shop.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { consoleTokenAuth } from '../../src/console-api/token-login.js';
import { readStandaloneConfig, startStandalone, type StandaloneServer } from '../../src/standalone/index.js';
import { CookieJar } from '../support/cookie-jar.js';
import { startPrefixFront, type PrefixFront } from '../support/prefix-front.js';
import { offlineStandaloneEnv } from '../support/standalone-env.js';
import { type Live, startLive } from '../proxy/sandbox-harness.js';

const TOKEN = 'a-console-token-of-some-length';

/**
 * A browser on the console's pages. It follows a 307 or 308 as a browser does (method and body kept: Next's
 * trailingSlash answers every path without its slash so), and nothing else by itself, so that each address can be
 * checked first; every address it goes to must be inside /shop/payin/.
 */
function operatorBrowser(front: PrefixFront) {
  const jar = new CookieJar();
  const origin = front.url;
  const inside = `${origin}/shop/payin/`;
  const go = async (url: string, init: RequestInit = {}): Promise<{ answer: Response; url: string }> => {
    for (let hops = 0; ; hops++) {
      expect(url.startsWith(inside), `${url} is inside ${inside}`).toBe(true);
      const headers = new Headers(init.headers);
      const cookie = jar.header(url);
      if (cookie) headers.set('cookie', cookie);
      headers.set('sec-fetch-site', 'same-origin');
      if (init.method === 'POST') headers.set('origin', origin);
      const answer = await fetch(url, { ...init, headers, redirect: 'manual' });
      jar.take(url, answer);
      if (![307, 308].includes(answer.status) || hops === 3) return { answer, url };
      url = new URL(answer.headers.get('location')!, url).href;
    }
  };
  /** A page: its links, scripts and forms, each resolved against the page's address and loaded as the browser would. */
  const page = async (address: string) => {
    const { answer, url } = await go(address);
    const html = await answer.text();
    const links = [...html.matchAll(/\b(href|src|action|base)="([^"]*)"/g)].map(([, kind, link]) => {
      const raw = link!.replace(/&#(\d+);/g, (_, code) => String.fromCharCode(Number(code)));
      return { kind: kind!, raw, url: new URL(raw, url).href };
    });
    // A data: link (the page's empty icon) is its own content: nothing is asked of any server for it.
    for (const link of links.filter((l) => (l.kind === 'href' || l.kind === 'src') && !l.url.startsWith('data:'))) {
      // The script answers 503 where the package was not built (these tests run the sources); it is there.
      expect([200, 503], link.url).toContain((await go(link.url)).answer.status);
    }
    return { status: answer.status, links, url };
  };
  return { jar, go, page };
}

async function signIn(browser: ReturnType<typeof operatorBrowser>, consoleUrl: string) {
  const login = await browser.page(consoleUrl);
  expect(login.status).toBe(401);
  const action = login.links.find((l) => l.kind === 'action')!.url;
  const signedIn = await browser.go(action, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ token: TOKEN }).toString(),
  });
  expect(signedIn.answer.status).toBe(303);
  const next = new URL(signedIn.answer.headers.get('location')!, signedIn.url).href;
  const consolePage = await browser.page(next);
  expect(consolePage.status).toBe(200);
  expect(consolePage.url.replace(/\/$/, '')).toBe(consoleUrl);
  // The page's element calls the API at `${base}${path}`, which the browser resolves against the page.
  const base = consolePage.links.find((l) => l.kind === 'base')!.raw;
  const api = (path: string) => new URL(`${base}${path}`, consolePage.url).href;
  const session = await browser.go(api('/api/session'));
  expect(session.answer.status).toBe(200);
  const { csrf } = (await session.answer.json()) as { csrf: string };
  return { api, csrf };
}

describe.each([
  ['a front that strips /shop', false],
  ["one that also puts a slash after each path (Next's trailingSlash)", true],
])('the console behind %s, publicBasePath /shop/payin', (_, trailingSlash) => {
  let live: Live;
  let front: PrefixFront;
  beforeAll(async () => {
    live = await startLive({ console: consoleTokenAuth(TOKEN), clientId: () => 'operator', publicBasePath: '/shop/payin' });
    front = await startPrefixFront(live.proxyUrl, '/shop', { trailingSlash });
  });
  afterAll(async () => {
    await front?.close();
    await live?.close();
  });

  it('signs in with the token, lists, opens a payment and re-checks it, all through the front', async () => {
    const { body } = await live.create('M-1');
    const id = body.payment.id as string;
    const browser = operatorBrowser(front);
    const { api, csrf } = await signIn(browser, `${front.url}/shop/payin/console`);

    const list = await browser.go(api('/api/payments'));
    expect(((await list.answer.json()) as { payments: { id: string }[] }).payments.map((p) => p.id)).toEqual([id]);
    expect((await browser.go(api(`/api/payments/${id}`))).answer.status).toBe(200);
    const recheck = await browser.go(api(`/api/payments/${id}/recheck`), { method: 'POST', headers: { 'x-payin-csrf': csrf } });
    expect(recheck.answer.status).toBe(200);

    for (const name of ['payin_console', 'payin_console_csrf']) expect(browser.jar.paths(name)).toEqual(['/shop/payin/console']);
    expect(front.refused).toEqual([]);
  });

  it('keeps every address inside /shop/payin/ on the form that a wrong token brings back', async () => {
    const browser = operatorBrowser(front);
    const login = await browser.page(`${front.url}/shop/payin/console`);
    const wrong = await browser.go(login.links.find((l) => l.kind === 'action')!.url, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ token: 'not-the-token' }).toString(),
    });
    expect(wrong.answer.status).toBe(401);
    const again = [...(await wrong.answer.text()).matchAll(/\b(?:href|action)="([^"]*)"/g)]
      .map(([, link]) => new URL(link!, wrong.url).href)
      .filter((link) => !link.startsWith('data:'));
    expect(again).toEqual([`${front.url}/shop/payin/console/console.css`, `${front.url}/shop/payin/console/login`]);
  });
});

describe('the console under a longer public path that the shop did not name', () => {
  /** The console behind a front that strips /shop, publicBasePath unset; the log's warnings, and the operator's sign-in. */
  async function unnamedPrefix(run: (world: { front: PrefixFront; warnings: string[]; signIn: () => Promise<void> }) => Promise<void>) {
    const warnings: string[] = [];
    const logger = { info: () => {}, warn: (message: string) => void warnings.push(message), error: () => {} };
    const live = await startLive({ console: consoleTokenAuth(TOKEN), clientId: () => 'operator', logger });
    const front = await startPrefixFront(live.proxyUrl, '/shop');
    const signIn = async () => {
      const browser = operatorBrowser(front);
      const consoleUrl = `${front.url}/shop/payin/console`;
      const login = await browser.page(consoleUrl);
      const signedIn = await browser.go(login.links.find((l) => l.kind === 'action')!.url, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded', referer: consoleUrl },
        body: new URLSearchParams({ token: TOKEN }).toString(),
      });
      expect(signedIn.answer.status).toBe(303);
      // The session cookie's Path is /payin/console: the browser keeps it and never sends it under /shop.
      expect((await browser.page(consoleUrl)).status).toBe(401);
    };
    try {
      await run({ front, warnings, signIn });
    } finally {
      await front.close();
      await live.close();
    }
  }
  const advice = (warnings: string[]) => warnings.filter((w) => w.includes('publicBasePath'));

  it('cannot keep the operator signed in, and says in the log which publicBasePath to set', async () => {
    await unnamedPrefix(async ({ warnings, signIn }) => {
      await signIn();
      expect(advice(warnings)).toEqual([
        expect.stringContaining('the browser sees the console at /shop/payin/console, outside the Path of its cookies (/payin/console)'),
      ]);
      expect(advice(warnings)[0]).toContain("('/shop/payin')");
    });
  });

  it("takes no advice from a stranger's wrong token: its Referer neither writes the log nor uses up the one warning", async () => {
    await unnamedPrefix(async ({ front, warnings, signIn }) => {
      // Anyone may post the sign-in form, with any Referer: before, the log told the operator to set publicBasePath
      // to the stranger's '/elsewhere', and said nothing when the operator's own sign-in then failed.
      const stranger = await fetch(`${front.url}/shop/payin/console/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded', referer: `${front.url}/elsewhere/console` },
        body: new URLSearchParams({ token: 'a-guess-of-the-token' }).toString(),
      });
      expect(stranger.status).toBe(401);
      expect(advice(warnings)).toEqual([]);
      await signIn();
      expect(advice(warnings)).toEqual([expect.stringContaining("('/shop/payin')")]);
    });
  });
});

describe('the standalone server under a longer public path (PAYIN_PUBLIC_BASE_PATH)', () => {
  let server: StandaloneServer;
  let front: PrefixFront;
  beforeAll(async () => {
    const config = readStandaloneConfig({
      ...offlineStandaloneEnv('memory:'),
      PAYIN_CONSOLE_TOKEN: TOKEN,
      PAYIN_PUBLIC_BASE_PATH: '/shop/payin',
    });
    server = await startStandalone(config, { log: () => {}, reconcileEveryMs: 0, storeCheckEveryMs: 0 });
    front = await startPrefixFront(server.url, '/shop');
  });
  afterAll(async () => {
    await front?.close();
    await server?.close();
  });

  it('signs in with the token, lists and signs out through the front', async () => {
    const browser = operatorBrowser(front);
    const { api, csrf } = await signIn(browser, `${front.url}/shop/payin/console`);
    expect((await browser.go(api('/api/payments'))).answer.status).toBe(200);
    const signOut = await browser.go(api('/logout'), { method: 'POST', headers: { 'x-payin-csrf': csrf } });
    expect(signOut.answer.status).toBe(200);
    expect(browser.jar.paths('payin_console')).toEqual([]);
    expect(front.refused).toEqual([]);
  });
});
