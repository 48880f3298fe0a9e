/**
 * The transport that Bun, Deno and workers use is their own fetch, whose redirects, aborts and body streams
 * differ from Node's: the fetch transport's tests run again on Bun and on Deno.
 */
import { describe, expect, it } from 'vitest';
import { OTHER_RUNTIMES, runTestFileOn } from '../../support/other-runtimes.js';

describe.each(OTHER_RUNTIMES)('on $name', (runtime) => {
  it('the fetch transport passes its tests', () => {
    const { status, output } = runTestFileOn(runtime, 'test/proxy/infrastructure/fetch-transport.test.ts', 60_000);
    expect(status, output).toBe(0);
    expect(output).toMatch(/Tests\s+\d+ passed/);
  }, 90_000);
});
