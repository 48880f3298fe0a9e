/**
 * A shop on the script tag needs the files themselves: the guide and the element's page say where they are in
 * the installed package and give the one command that copies them, and that command's glob takes every
 * script-tag file package.json exports (the core, its parts, its languages), so that none is left behind for
 * the script to miss at run time; the README's table names every part file, the fallback one too.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

const read = (path: string) => readFileSync(new URL(`../../${path}`, import.meta.url), 'utf8');
const COPY = 'cp node_modules/payin-checkout/dist/payin-checkout.*.js ';

describe('the script-tag files', () => {
  it.each(['README.md', 'docs/element.md'])('%s says how to copy them out of the package', (path) => {
    expect(read(path)).toContain(COPY);
  });

  it("are each named on the README's row of the part files", () => {
    const exports = (JSON.parse(read('package.json')) as { exports: Record<string, unknown> }).exports;
    const parts = Object.keys(exports).flatMap((key) => /^\.\/payin-checkout\.([a-z-]+)\.part\.js$/.exec(key)?.[1] ?? []);
    expect(parts.length).toBeGreaterThan(3);
    const row = read('README.md')
      .split('\n')
      .find((line) => line.startsWith('| `payin-checkout/payin-checkout.<part>.part.js`'));
    expect(parts.filter((part) => !row?.includes(`\`${part}\``))).toEqual([]);
  });

  it('are all taken by that command', () => {
    const exports = (JSON.parse(read('package.json')) as { exports: Record<string, unknown> }).exports;
    const scriptTag = Object.entries(exports).filter(([key]) => /^\.\/payin-checkout\..+\.js$/.test(key));
    expect(scriptTag.map(([key]) => key)).toContain('./payin-checkout.iife.js');
    const glob = /^\.\/dist\/payin-checkout\.[^/]+\.js$/;
    expect(scriptTag.filter(([, target]) => typeof target !== 'string' || !glob.test(target))).toEqual([]);
  });
});
