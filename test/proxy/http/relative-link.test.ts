/**
 * A link the proxy writes relative to the path it was asked for lands on the target under whatever prefix the
 * browser sees in front of that path (none, Next's basePath, a front server's location), with or without the
 * slash Next's `trailingSlash` puts after each path.
 */
import { describe, expect, it } from 'vitest';
import { relativeLink } from '../../../src/proxy/http/relative-link.js';

const PREFIXES = ['', '/shop', '/a/b'];
const CASES: [from: string, to: string][] = [
  ['/payin/console', '/payin/console/console.css'],
  ['/payin/console/', '/payin/console/console.css'],
  ['/payin/console/login', '/payin/console'],
  ['/payin/console/login/', '/payin/console'],
  ['/payin/console/', '/payin/console'],
  ['/payin/console', '/payin/console'],
  ['/payin/sbp-banks', '/payin/sbp-banks/logos/bank100000000111.png'],
  ['/payin/sbp-banks/', '/payin/sbp-banks/logos/bank100000000111.png'],
  ['/console', '/console/login'],
  ['/payin/x:y', '/payin/x:y/z'],
];

describe('relativeLink', () => {
  it.each(CASES)('from %s to %s, under every prefix', (from, to) => {
    const link = relativeLink(from, to);
    expect(link).toMatch(/^\.\.?\//);
    for (const prefix of PREFIXES) {
      expect(new URL(link, `https://shop.example${prefix}${from}`).pathname, prefix).toBe(`${prefix}${to}`);
    }
  });
});
