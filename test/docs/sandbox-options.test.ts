/**
 * docs/sandbox.md lists the options of `createSandbox` for a shop's own tests: each field of SandboxOptions
 * (src/sandbox/options.ts) is named there, so that a shop can find, for one, how to give its payments a commission
 * and test what it reads of `amount_commission_less`.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

const read = (path: string) => readFileSync(new URL(`../../${path}`, import.meta.url), 'utf8');

describe('docs/sandbox.md', () => {
  it('names every field of SandboxOptions', () => {
    const source = read('src/sandbox/options.ts');
    const start = source.indexOf('export interface SandboxOptions {');
    const body = source.slice(start, source.indexOf('\n}', start));
    const fields = [...body.matchAll(/^ {2}([a-zA-Z]+)\??:/gm)].map((m) => m[1]!);
    expect(fields.length).toBeGreaterThan(10);
    const page = read('docs/sandbox.md');
    expect(fields.filter((field) => !new RegExp(`\\b${field}\\b`).test(page))).toEqual([]);
  });
});
