/**
 * Every entry point package.json exports is in the README's table of imports, and what the README's first
 * integration imports from an entry point is listed on that entry point's row: a public thing nobody is told of
 * is one nobody can use, and a row that omits what the guide imports sends a reader looking elsewhere.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

const read = (path: string) => readFileSync(new URL(`../../${path}`, import.meta.url), 'utf8');
const readme = read('README.md');
const exports = Object.keys((JSON.parse(read('package.json')) as { exports: Record<string, unknown> }).exports);

/** The README's row for an import path: the table line whose first cell names it. */
function rowOf(path: string): string | undefined {
  return readme.split('\n').find((line) => line.startsWith('| ') && line.split('|')[1]!.includes(`\`${path}\``));
}

describe('the README table of imports', () => {
  it('has a row for every code entry point package.json exports', () => {
    const entries = exports.filter((key) => !/\.(js|json)$/.test(key) && !['./react', './preact', './vue'].includes(key));
    const named = (key: string) => (key === '.' ? 'payin-checkout' : `payin-checkout/${key.slice(2)}`);
    expect(entries.filter((key) => !rowOf(named(key)))).toEqual([]);
  });

  it('lists on each row what the first integration imports from it', () => {
    const imports = [...readme.matchAll(/import \{ ([^}]+) \} from '(payin-checkout\/[a-z]+)'/g)];
    expect(imports.length).toBeGreaterThan(0);
    const missing = imports.flatMap(([, names, path]) =>
      names!
        .split(',')
        .map((name) => name.trim())
        .filter((name) => !rowOf(path!)?.includes(name))
        .map((name) => `${name} from ${path}`),
    );
    expect(missing).toEqual([]);
  });
});

describe('the names each server entry point exports', () => {
  const docs = [
    readme,
    ...['proxy', 'runtimes', 'stores', 'standalone', 'console', 'sandbox', 'development'].map((page) => read(`docs/${page}.md`)),
  ].join('\n');
  it.each([
    ['payin-checkout/proxy', '../../src/proxy/index.js'],
    ['payin-checkout/node', '../../src/server/index.js'],
    ['payin-checkout/standalone', '../../src/standalone/index.js'],
  ])('%s: every value it exports is named in the README or docs/', async (_entry, path) => {
    const names = Object.keys(await import(path));
    expect(names.length).toBeGreaterThan(2);
    expect(names.filter((name) => !new RegExp(`\\b${name}\\b`).test(docs))).toEqual([]);
  });
});
