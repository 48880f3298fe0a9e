/**
 * Every variable the standalone server reads is on its page (docs/standalone.md), so that an operator who only
 * has the docs can find, for one, the address it listens on (HOST) or the path it serves under (PAYIN_BASE_PATH).
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

const read = (path: string) => readFileSync(new URL(`../../${path}`, import.meta.url), 'utf8');

describe('docs/standalone.md', () => {
  it('names every variable src/standalone/config.ts reads, and every setting the server knows (settings.ts)', () => {
    const source = read('src/standalone/config.ts') + read('src/standalone/settings.ts');
    const names = new Set([...source.matchAll(/'((?:PAYIN_[A-Z_]+)|PORT|HOST)'/g)].map((m) => m[1]!));
    expect(names.size).toBeGreaterThan(10);
    const page = read('docs/standalone.md');
    expect([...names].filter((name) => !new RegExp(`\\b${name}\\b`).test(page))).toEqual([]);
  });
});
