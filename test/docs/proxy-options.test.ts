/**
 * docs/proxy.md promises "every option": each field of PayinProxyOptions (src/proxy/options.ts) and each limit
 * and timeout is named on the page, so that a shop reading only the docs can find, for one, the console.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

const read = (path: string) => readFileSync(new URL(`../../${path}`, import.meta.url), 'utf8');

/** The top-level field names of one interface in options.ts. */
function fieldsOf(source: string, name: string): string[] {
  const start = source.indexOf(`export interface ${name} {`);
  const body = source.slice(start, source.indexOf('\n}', start));
  return [...body.matchAll(/^ {2}(?:readonly )?([a-zA-Z]+)\??:/gm)].map((m) => m[1]!);
}

describe('docs/proxy.md', () => {
  const source = read('src/proxy/options.ts');
  const page = read('docs/proxy.md');

  it.each(['PayinProxyOptions', 'ProxyLimits', 'ProxyTimeouts'])('names every field of %s', (name) => {
    const fields = fieldsOf(source, name);
    expect(fields.length).toBeGreaterThan(5);
    expect(fields.filter((field) => !new RegExp(`\\b${field}\\b`).test(page))).toEqual([]);
  });

  it('lists every store the stores page has', () => {
    const row = page.split('\n').find((line) => line.startsWith('| `store` |'))!;
    for (const store of ['SQLite', 'Redis', 'PostgreSQL']) expect(row).toContain(store);
  });
});
