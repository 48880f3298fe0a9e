/**
 * docs/stores.md says the Postgres store runs unchanged on Node, Bun and Deno (postgres.js is plain JavaScript):
 * its tests, the store contract suite among them, run again on Bun and on Deno, each against a throwaway
 * PostgreSQL of its own; so do its tests over TLS, where the store starts TLS on its own sockets (each runtime has
 * its own TLS under node:tls).
 */
import { describe, expect, it } from 'vitest';
import { OTHER_RUNTIMES, runTestFileOn } from '../support/other-runtimes.js';

describe.each(OTHER_RUNTIMES)('the Postgres store on $name', (runtime) => {
  it('passes its tests', () => {
    const { status, output } = runTestFileOn(runtime, 'test/postgres/postgres-store.test.ts');
    expect(status, output).toBe(0);
    expect(output).toMatch(/Tests\s+\d+ passed/);
  }, 150_000);

  it('passes its tests over TLS', () => {
    const { status, output } = runTestFileOn(runtime, 'test/postgres/postgres-tls.test.ts', 60_000);
    expect(status, output).toBe(0);
    expect(output).toMatch(/Tests\s+6 passed/);
  }, 90_000);
});
