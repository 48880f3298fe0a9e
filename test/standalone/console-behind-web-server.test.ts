/**
 * The operator's console behind the shop's web server, as the docs place the standalone server. nginx's
 * `proxy_pass http://127.0.0.1:8787` sends the Host it connects to (`127.0.0.1:8787`), not the one the browser
 * asked for, unless told otherwise; the browser's Origin still names the shop. Over real HTTP, with the headers
 * a browser sends and such a web server passes on.
 */
import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readStandaloneConfig, startStandalone, type StandaloneServer } from '../../src/standalone/index.js';
import { offlineStandaloneEnv } from '../support/standalone-env.js';

const CONSOLE_TOKEN = 'a-console-token-for-the-operator';
const SHOP = 'https://shop.example';

let server: StandaloneServer;
beforeAll(async () => {
  const config = readStandaloneConfig({ ...offlineStandaloneEnv('memory:'), PAYIN_CONSOLE_TOKEN: CONSOLE_TOKEN });
  server = await startStandalone(config, { log: () => {}, reconcileEveryMs: 0, storeCheckEveryMs: 0 });
});
afterAll(() => server.close());

interface Sent {
  method?: 'GET' | 'POST';
  headers?: Record<string, string>;
  body?: string;
}

/** One request as the web server in front passes it on: its own Host unless another is given. */
function throughWebServer(path: string, { method = 'GET', headers = {}, body = '' }: Sent = {}) {
  const { hostname, port, host } = new URL(server.url);
  return new Promise<{ status: number; setCookie: string[]; body: string }>((resolve, reject) => {
    const req = request(
      { hostname, port, path, method, agent: false, headers: { host, 'content-length': Buffer.byteLength(body), ...headers } },
      (res) => {
        let text = '';
        res.on('data', (chunk) => (text += chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, setCookie: res.headers['set-cookie'] ?? [], body: text }));
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

/** What the browser adds to a request of the console's own page. */
const fromConsolePage = { origin: SHOP, 'sec-fetch-site': 'same-origin' };
const form = { 'content-type': 'application/x-www-form-urlencoded' };

describe('the console behind a web server that passes on its own Host', () => {
  it('signs the operator in, and takes their actions, though the Host is not the page’s', async () => {
    const login = await throughWebServer('/payin/console/login', {
      method: 'POST',
      headers: { ...fromConsolePage, ...form },
      body: new URLSearchParams({ token: CONSOLE_TOKEN }).toString(),
    });
    expect(login.status).toBe(303);
    const session = login.setCookie[0]!.split(';')[0]!;

    const page = await throughWebServer('/payin/console/api/session', {
      headers: { cookie: session, 'sec-fetch-site': 'same-origin', referer: `${SHOP}/payin/console` },
    });
    expect(page.status).toBe(200);
    const csrf = (JSON.parse(page.body) as { csrf: string }).csrf;
    const csrfCookie = page.setCookie[0]!.split(';')[0]!;

    const logout = await throughWebServer('/payin/console/logout', {
      method: 'POST',
      headers: { ...fromConsolePage, ...form, cookie: `${session}; ${csrfCookie}`, 'x-payin-csrf': csrf },
    });
    expect(logout.status).toBe(200);
  });

  it('still refuses another site’s page, whatever Host arrives', async () => {
    const tries: Record<string, string>[] = [
      { origin: 'https://evil.example', 'sec-fetch-site': 'cross-site' },
      { origin: 'https://sub.shop.example', 'sec-fetch-site': 'same-site' },
      // A browser too old to send Sec-Fetch-Site: its Origin is compared with the Host.
      { origin: 'https://evil.example' },
    ];
    for (const headers of tries) {
      const login = await throughWebServer('/payin/console/login', {
        method: 'POST',
        headers: { ...headers, ...form },
        body: new URLSearchParams({ token: CONSOLE_TOKEN }).toString(),
      });
      expect(login.status, JSON.stringify(headers)).toBe(403);
    }
  });
});
