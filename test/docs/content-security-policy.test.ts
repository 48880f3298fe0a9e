/**
 * A shop that sends a Content-Security-Policy needs to know what the element asks of it. docs/element.md gives the
 * policy, and it is the one the strict-CSP shop of the demo sends (demo/server/storefront.js), under which the
 * end-to-end suites pay in Chromium, Firefox and WebKit: a policy on the page that nothing tests would be a guess.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

const read = (path: string) => readFileSync(new URL(`../../${path}`, import.meta.url), 'utf8');

describe("docs/element.md's Content-Security-Policy", () => {
  it('is the policy the strict-CSP shop is tested under', () => {
    const tested = /export const STRICT_CSP =\s*"([^"]+)"/.exec(read('demo/server/storefront.js'))?.[1];
    expect(tested).toMatch(/^default-src/);
    const documented = /`(default-src [^`]+)`/.exec(read('docs/element.md'))?.[1];
    expect(documented, 'a policy on docs/element.md').toBe(tested);
  });
});
