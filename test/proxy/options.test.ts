import { describe, expect, it } from 'vitest';
import { createPayinProxy } from '../../src/proxy/index.js';
import { resolveOptions } from '../../src/proxy/resolved-options.js';

const resolveOrder = () => ({ amount: '1.00', currency: 'INR' });
const env = {
  PAYIN_BASE_URL: 'http://service.test',
  PAYIN_MERCHANT_ID: 'm',
  PAYIN_TOKEN: 't',
  PAYIN_SECRET: 's',
  PAYIN_CALLBACK_URL: 'http://shop.test/payin/callback',
};

describe('createPayinProxy options', () => {
  it('starts from the PAYIN_* variables alone', () => {
    expect(() => createPayinProxy({ resolveOrder, env })).not.toThrow();
  });

  it('fails at start naming a missing secret', () => {
    expect(() => createPayinProxy({ resolveOrder, env: { ...env, PAYIN_SECRET: '' } })).toThrow(/provider\.secret \(or PAYIN_SECRET\)/);
  });

  it('takes two secrets while PAYIN_SECRET is rotated, and refuses three or the same one twice at start', () => {
    expect(() => createPayinProxy({ resolveOrder, env: { ...env, PAYIN_SECRET: 'new-secret old-secret' } })).not.toThrow();
    expect(() => createPayinProxy({ resolveOrder, env: { ...env, PAYIN_SECRET: 'a-secret b-secret c-secret' } })).toThrow(
      /provider\.secret \(PAYIN_SECRET\) holds 3 secrets/,
    );
    expect(() => createPayinProxy({ resolveOrder, env, provider: { secret: 'same-secret same-secret' } })).toThrow(/the same secret twice/);
  });

  it('fails at start naming a missing base URL', () => {
    expect(() => createPayinProxy({ resolveOrder, env: { ...env, PAYIN_BASE_URL: undefined } })).toThrow(/PAYIN_BASE_URL/);
  });

  it('prefers options over variables and refuses a base URL that is not http(s)', () => {
    expect(() => createPayinProxy({ resolveOrder, env, provider: { baseUrl: 'ftp://x' } })).toThrow(/http\(s\)/);
  });

  it('needs resolveOrder', () => {
    expect(() => createPayinProxy({ env } as never)).toThrow(/resolveOrder/);
  });

  it('mounts under another basePath', async () => {
    const proxy = createPayinProxy({ resolveOrder, env, basePath: '/shop/pay/' });
    expect(proxy.basePath).toBe('/shop/pay');
    expect(proxy.matches(new Request('http://x/shop/pay/status'))).toBe(true);
    expect((await proxy(new Request('http://x/payin/status', { method: 'POST' }))).status).toBe(404);
  });

  it('takes an allowed origin as a browser sends it: a trailing slash, capitals or a default port still match', async () => {
    const proxy = createPayinProxy({ resolveOrder, env, allowedOrigins: ['https://Shop.Example/', 'https://pay.example:443'] });
    for (const origin of ['https://shop.example', 'https://pay.example']) {
      const preflight = await proxy(
        new Request('http://x/payin/payments', {
          method: 'OPTIONS',
          headers: { origin, 'access-control-request-method': 'POST' },
        }),
      );
      expect(preflight.headers.get('access-control-allow-origin')).toBe(origin);
    }
  });

  it('refuses at start an allowed origin that no browser can send, naming it', () => {
    for (const bad of ['shop.example', 'https://shop.example/checkout', '*', 'ftp://shop.example']) {
      expect(() => createPayinProxy({ resolveOrder, env, allowedOrigins: [bad] })).toThrow(/allowedOrigins/);
      expect(() => createPayinProxy({ resolveOrder, env, allowedOrigins: [bad] })).toThrow(bad);
    }
  });

  it('refuses at start a hook deadline that is not a usable delay, naming it', () => {
    for (const hookMs of [0, -1, Number.NaN, Number.POSITIVE_INFINITY, 2 ** 31, '30000']) {
      expect(() => createPayinProxy({ resolveOrder, env, timeouts: { hookMs } as never })).toThrow(/timeouts\.hookMs must be a number/);
    }
    expect(() => createPayinProxy({ resolveOrder, env, timeouts: { hookMs: 1 } })).not.toThrow();
    expect(() => createPayinProxy({ resolveOrder, env, timeouts: { hookMs: undefined } })).not.toThrow();
  });

  it('takes a publicBasePath as basePath is written, and refuses at start one that cannot be a cookie Path, naming it', () => {
    for (const good of ['/shop/payin', 'shop/payin/', '/'])
      expect(() => createPayinProxy({ resolveOrder, env, publicBasePath: good })).not.toThrow();
    for (const bad of ['/shop; Domain=evil.test', '/shop payin', '/shop?x', 'https://shop.example/shop/payin', 42]) {
      expect(() => createPayinProxy({ resolveOrder, env, publicBasePath: bad as never })).toThrow(
        /^createPayinProxy: publicBasePath must be/,
      );
    }
  });

  it('refuses at start a publicBasePath the browser never sends as written, naming the one it does', () => {
    // A cookie's Path is compared with the path as the browser sends it: percent-encoded, its dot segments resolved.
    // Before, these started: the first made every sign-in a 500 (no header can hold it), the others a Path the
    // browser never matches, so no operator stayed signed in.
    for (const [bad, sent] of [
      ['/магазин/payin', '/%D0%BC%D0%B0%D0%B3%D0%B0%D0%B7%D0%B8%D0%BD/payin'],
      ['/"shop"/payin', '/%22shop%22/payin'],
      ['/shop/<p>', '/shop/%3Cp%3E'],
      ['/shop/../payin', '/payin'],
      ['/shop/./payin', '/shop/payin'],
      ['/shop/%2e%2e/payin', '/payin'],
    ]) {
      expect(() => createPayinProxy({ resolveOrder, env, publicBasePath: bad })).toThrow(
        `createPayinProxy: publicBasePath must be written as the browser sends it: ${JSON.stringify(sent)}, not ${JSON.stringify(bad)}.`,
      );
    }
    for (const good of ['/%D0%BC%D0%B0%D0%B3/payin', '/shop//payin', "/shop's/payin", '/shop.v2/payin'])
      expect(() => createPayinProxy({ resolveOrder, env, publicBasePath: good })).not.toThrow();
  });

  it('refuses at start a timeout it does not know, naming it and those it takes', () => {
    // The name a shop might guess for the hook's deadline: silently ignored, it left the hook without the one it meant.
    expect(() => createPayinProxy({ resolveOrder, env, timeouts: { hookTimeoutMs: 5_000 } as never })).toThrow(
      /timeouts has no hookTimeoutMs; it takes .*\bhookMs\b/,
    );
  });

  it('refuses at start a limit it does not know, naming it and those it takes', () => {
    // One letter short of createsPerMinute: silently ignored, it left the default of 30 creates a minute in place.
    expect(() => createPayinProxy({ resolveOrder, env, limits: { createPerMinute: 5 } as never })).toThrow(
      /createPayinProxy: limits has no createPerMinute; it takes .*\bcreatesPerMinute\b/,
    );
    expect(resolveOptions({ resolveOrder, env, limits: { createsPerMinute: 5 } }).limits.createsPerMinute).toBe(5);
  });

  it('keeps the default of a limit given as undefined', () => {
    // Spread over the defaults, undefined replaced the limit, and a comparison with undefined let everything through.
    expect(resolveOptions({ resolveOrder, env, limits: { streamsPerClient: undefined } }).limits.streamsPerClient).toBe(10);
  });

  it('refuses at start a provider field or a console field it does not know, naming it', () => {
    expect(() => createPayinProxy({ resolveOrder, env, provider: { merchantID: 'm-2' } as never })).toThrow(
      /createPayinProxy: provider has no merchantID; it takes .*\bmerchantId\b/,
    );
    expect(() =>
      createPayinProxy({ resolveOrder, env, console: { authorizeOperator: () => true, operatorname: () => 'ann' } as never }),
    ).toThrow(/createPayinProxy: console has no operatorname; it takes .*\boperatorName\b/);
  });

  it('refuses at start an option it does not know, naming it and those it takes', () => {
    // Silently ignored, a misspelt hook left the shop hearing of no payment at all.
    expect(() => createPayinProxy({ resolveOrder, env, onPaymentUpdates: () => {} } as never)).toThrow(
      /^createPayinProxy has no onPaymentUpdates; it takes .*\bonPaymentUpdate\b/,
    );
  });
});
