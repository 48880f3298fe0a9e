/**
 * The SBP bank list of a proxy that the browser sees under a longer path than it is mounted at (Next's basePath,
 * a front server that strips a prefix): read by the element's own loader (src/widget/phone/sbp-banks.ts), every
 * logo it keeps loads through the front. Before, each logo was `/payin/sbp-banks/logos/<schema>.png`, outside
 * `/shop`, and the front answered 404 for every one. Over real HTTP: the sandbox stands in for NSPK's list and
 * logos, the proxy on its own socket, the front before it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSandbox } from '../../../src/sandbox/index.js';
import { SBP_MEMBERS_PATH } from '../../../src/sandbox/sbp-members.js';
import { serve, type RunningServer } from '../../../src/server/serve.js';
import { loadSbpBanks } from '../../../src/widget/phone/sbp-banks.js';
import { startPrefixFront, type PrefixFront } from '../../support/prefix-front.js';
import { type Live, startLive } from '../sandbox-harness.js';

let banks: RunningServer;
let live: Live;
const fronts: PrefixFront[] = [];

beforeAll(async () => {
  banks = await serve(createSandbox());
  live = await startLive({ sbpBanksUrl: `${banks.url}${SBP_MEMBERS_PATH}` });
});
afterAll(async () => {
  await Promise.all(fronts.map((front) => front.close()));
  await live?.close();
  await banks?.close();
});

describe('the SBP bank list under a longer public path', () => {
  it.each([
    ['a front that strips /shop', false],
    ["one that also puts a slash after each path (Next's trailingSlash)", true],
  ])('loads every logo through %s', async (_, trailingSlash) => {
    const front = await startPrefixFront(live.proxyUrl, '/shop', { trailingSlash });
    fronts.push(front);
    // The element's endpoint as the shop's pages see it (a browser resolves `/shop/payin` to this).
    const list = await loadSbpBanks(`${front.url}/shop/payin`, AbortSignal.timeout(10_000));

    const logos = list.flatMap((bank) => (bank.logoURL ? [bank.logoURL] : []));
    expect(logos.length).toBeGreaterThan(5);
    for (const logo of logos) expect(logo.startsWith(`${front.url}/shop/payin/sbp-banks/logos/`), logo).toBe(true);
    const answers = await Promise.all(logos.slice(0, 5).map((logo) => fetch(logo)));
    expect(answers.map((answer) => [answer.status, answer.headers.get('content-type')])).toEqual(answers.map(() => [200, 'image/png']));
    expect(front.refused).toEqual([]);
  });
});
