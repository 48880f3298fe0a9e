/**
 * The node adapter reads a request's URL and path without the URL parser where it can (request-target.ts): for
 * every target and Host here, plain or not, the answer must be the parser's own, and what the parser refuses is
 * refused.
 */
import { describe, expect, it } from 'vitest';
import { parseRequestTarget } from '../../src/server/request-target.js';

const TARGETS = [
  '/',
  '/payin/status',
  '/payin/status?x=1&y=%20z',
  '/payin/events?paymentId=6b04&token=ab:cd@ef',
  '/payin/../payin/status',
  '/payin/./status',
  '/payin/%2e%2e/status',
  '/payin/%2E/status',
  '/payin/.hidden/status',
  '/payin/..',
  '/payin/.',
  '/payin/status?q=/../x',
  '//evil.test/payin/status',
  '/payin\\status',
  '/payin/st atus',
  "/payin/status?name=O'Brien",
  '/payin/ü',
  '/payin/status#fragment',
  '/payin/<script>',
  '/payin/status?a=b?c',
  '*',
  'http://other.test/payin/status',
  'payin/status',
];
const HOSTS = [
  '127.0.0.1:4000',
  'Shop.Example',
  'shop.example:80',
  'shop.example:443',
  '[::1]:8080',
  'xn--80ak6aa92e.com',
  'localhost',
  'user@shop.example',
  'shop.example/sub',
  'shop.example?q',
  'shop.example#f',
];

describe('the request target read without the URL parser', () => {
  for (const protocol of ['http', 'https'] as const) {
    it(`gives the URL parser's url and pathname for each target and host (${protocol})`, () => {
      for (const host of HOSTS) {
        for (const target of TARGETS) {
          const url = new URL(target, `${protocol}://${host}`);
          expect(parseRequestTarget(target, protocol, host), `${host} ${target}`).toEqual({ url: url.href, pathname: url.pathname });
        }
      }
    });
  }

  it('refuses what the URL parser refuses', () => {
    for (const host of ['bad host', 'shop.example:99999', '999.999.999.999', '']) {
      expect(() => new URL('/', `http://${host}`), host).toThrow();
      expect(() => parseRequestTarget('/payin/status', 'http', host), host).toThrow(TypeError);
    }
  });

  it('keeps no more than a bounded number of origins for hosts a client makes up', () => {
    for (let i = 0; i < 500; i++) {
      const host = `h${i}.example`;
      expect(parseRequestTarget('/payin/status', 'http', host).url).toBe(`http://${host}/payin/status`);
    }
  });
});
