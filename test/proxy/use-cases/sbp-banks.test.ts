/**
 * GET {basePath}/sbp-banks: the NSPK member list for the SBP bank chooser, from the sandbox's stand-in here, with
 * logos served from the proxy's own origin (for a strict CSP), a time to live, and the last good copy when a
 * refresh fails.
 */
import { describe, expect, it } from 'vitest';
import { createSandbox } from '../../../src/sandbox/index.js';
import { ORIGIN, setup } from '../harness.js';

const LIST_URL = 'http://sandbox.test/proxyapp/c2bmembers.json';

function banksSetup(list?: (original: Response) => Response | Promise<Response>) {
  const sandbox = createSandbox();
  let down = false;
  let fetches = 0;
  const t = setup({
    sbpBanksUrl: LIST_URL,
    sbpBanksTtlMs: 60_000,
    fetch: async (input, init) => {
      const url = String(input instanceof Request ? input.url : input);
      if (!url.startsWith('http://sandbox.test/proxyapp/')) throw new Error(`unexpected fetch ${url}`);
      if (url === LIST_URL) fetches++;
      if (down) throw new TypeError('fetch failed');
      const answer = await sandbox(new Request(input, init));
      return url === LIST_URL && list ? list(answer) : answer;
    },
  });
  const get = (path: string) => t.proxy(new Request(`${ORIGIN}/payin${path}`));
  return { ...t, get, setDown: (value: boolean) => (down = value), fetches: () => fetches };
}

describe('GET /payin/sbp-banks', () => {
  it("answers the member list in NSPK's shape, every logo on the proxy's own origin", async () => {
    const t = banksSetup();
    const answer = await t.get('/sbp-banks');
    expect(answer.status).toBe(200);
    const body = (await answer.json()) as { dictionary: { bankName: string; schema: string; package_name: string; logoURL: string }[] };
    expect(body.dictionary.length).toBeGreaterThanOrEqual(10);
    expect(body.dictionary[0]).toEqual({
      bankName: 'Сбербанк',
      schema: 'bank100000000111',
      package_name: 'ru.sberbankmobile',
      // Relative to the list's address, so that it holds under a path the proxy cannot see (sbp-banks-mounted-below.test.ts).
      logoURL: './sbp-banks/logos/bank100000000111.png',
    });
    expect(new URL(body.dictionary[0]!.logoURL, `${ORIGIN}/payin/sbp-banks`).pathname).toBe('/payin/sbp-banks/logos/bank100000000111.png');
    const logo = await t.get('/sbp-banks/logos/bank100000000111.png');
    expect([logo.status, logo.headers.get('content-type')]).toEqual([200, 'image/png']);
    expect(new Uint8Array(await logo.arrayBuffer()).slice(1, 4)).toEqual(new TextEncoder().encode('PNG'));
    expect((await t.get('/sbp-banks/logos/bank999999999999.png')).status).toBe(404);
  });

  it('serves the list in the order to show it: the largest banks first, then the rest by name', async () => {
    const shuffled = [
      { bankName: 'Точка', schema: 'bank100000000284' },
      { bankName: 'ВТБ', schema: 'bank100000000005' },
      { bankName: 'Альфа-Банк', schema: 'bank100000000008' },
      { bankName: 'Озон Банк', schema: 'bank100000000273' },
      { bankName: 'Сбербанк', schema: 'bank100000000111' },
      { bankName: 'Банк Левобережный', schema: 'bank100000000052' },
    ];
    const t = banksSetup(() => Response.json({ version: '1', dictionary: shuffled }));
    const body = (await (await t.get('/sbp-banks')).json()) as { dictionary: { bankName: string }[] };
    expect(body.dictionary.map((b) => b.bankName)).toEqual(['Сбербанк', 'ВТБ', 'Альфа-Банк', 'Банк Левобережный', 'Озон Банк', 'Точка']);
  });

  it('keeps the list for its time to live, then serves the last good copy while refreshes fail', async () => {
    const t = banksSetup();
    await t.get('/sbp-banks');
    await t.get('/sbp-banks');
    expect(t.fetches()).toBe(1);
    await t.clock.advance(60_001);
    t.setDown(true);
    const stale = await t.get('/sbp-banks');
    expect(stale.status).toBe(200);
    expect(t.fetches()).toBe(2);
  });

  it('answers 502 when there never was a good copy, and drops entries without a valid schema', async () => {
    const never = banksSetup();
    never.setDown(true);
    expect((await never.get('/sbp-banks')).status).toBe(502);
    const odd = banksSetup(async () =>
      Response.json({
        version: '1',
        dictionary: [
          { bankName: 'Good', schema: 'bank100000000111', logoURL: 'javascript:alert(1)' },
          { bankName: 'Bad', schema: 'x' },
          42,
        ],
      }),
    );
    const body = (await (await odd.get('/sbp-banks')).json()) as { dictionary: unknown[] };
    expect(body.dictionary).toEqual([{ bankName: 'Good', schema: 'bank100000000111' }]);
  });

  it('drops a bank whose name reads as another, and keeps no package name that could carry more of an intent link', async () => {
    const t = banksSetup(() =>
      Response.json({
        version: '1',
        dictionary: [
          // U+202E shows "кнабребС" as "Сбербанк": the shopper would tap it for Sber and open another app.
          { bankName: '\u202eкнабребС', schema: 'bank100000000005' },
          { bankName: 'Сбер\u200bбанк', schema: 'bank100000000004' },
          { bankName: 'Good', schema: 'bank100000000111', package_name: 'x;S.browser_fallback_url=https%3A%2F%2Fevil.test;end' },
        ],
      }),
    );
    const body = (await (await t.get('/sbp-banks')).json()) as { dictionary: unknown[] };
    expect(body.dictionary).toEqual([{ bankName: 'Good', schema: 'bank100000000111' }]);
  });
});
