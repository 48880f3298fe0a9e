/**
 * The types-only entry points (`payin-checkout/react`, `/preact`, `/vue`) do nothing until a project imports them,
 * so docs/element.md, the page on using the element, shows that import for each one package.json exports.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

const read = (path: string) => readFileSync(new URL(`../../${path}`, import.meta.url), 'utf8');

describe('docs/element.md', () => {
  it('shows the import of every types-only entry point', () => {
    const exports = (JSON.parse(read('package.json')) as { exports: Record<string, unknown> }).exports;
    const typesOnly = Object.entries(exports)
      .filter(([, target]) => typeof target === 'object' && target !== null && Object.keys(target).join() === 'types')
      .map(([key]) => `payin-checkout/${key.slice(2)}`);
    expect(typesOnly).toEqual(['payin-checkout/react', 'payin-checkout/preact', 'payin-checkout/vue']);
    const page = read('docs/element.md');
    expect(typesOnly.filter((entry) => !page.includes(`import type {} from '${entry}'`))).toEqual([]);
  });
});
