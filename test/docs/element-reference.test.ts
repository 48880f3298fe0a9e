/**
 * docs/element.md is the page a shop's developer styles and wires the element from, so its tables are held to the
 * element: the attributes and properties with their defaults (the class itself, constructed in Node as a server
 * renders it), the events, slots, CSS parts and custom properties (the class's JSDoc, from which the
 * custom-elements manifest is generated, and the parts the templates draw), and where each custom property can be
 * set (the stylesheet: a default on :host wins over a value inherited from an ancestor).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = new URL('../../', import.meta.url).pathname;
const read = (path: string) => readFileSync(join(ROOT, path), 'utf8');
const page = read('docs/element.md');
const classFile = read('src/widget/payin-checkout-element.ts');
const stylesheet = read('src/widget/payin-checkout.styles.ts');

/** The text of one `## heading` section of the page. */
function section(heading: string): string {
  const start = page.indexOf(`\n## ${heading}\n`);
  expect(start, heading).toBeGreaterThan(0);
  const end = page.indexOf('\n## ', start + 1);
  return page.slice(start, end < 0 ? undefined : end);
}

/** The cells of a section's table rows whose first cell is code, without the backticks of a cell that is one code span. */
function rows(text: string): string[][] {
  return text
    .split('\n')
    .filter((line) => line.startsWith('| `'))
    .map((line) =>
      line
        .slice(1, -1)
        .split(' | ')
        .map((cell) => cell.trim().replace(/^`([^`]*)`$/, '$1')),
    );
}

/** The names a JSDoc tag of the class lists (`@csspart name - ...`). */
const tagged = (tag: string) => [...classFile.matchAll(new RegExp(`^ \\* @${tag} (\\S+)`, 'gm'))].map(([, name]) => name!);

/** Every part a template of the element or its parts draws. */
function partsDrawn(): string[] {
  const files = readdirSync(join(ROOT, 'src/widget'), { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.ts'));
  const names = files.flatMap((file) =>
    [...read(`src/widget/${file}`).matchAll(/\bpart="([^"$]+)"/g)].flatMap(([, list]) => list!.split(/\s+/)),
  );
  return [...new Set(names)];
}

/** The value after `name:` in the stylesheet's first `:host` rule (the light defaults), or undefined. */
function hostDefault(name: string): string | undefined {
  const host = /:host \{([^}]*)\}/.exec(stylesheet)![1]!;
  return new RegExp(`^\\s*${name}: ([^;]+);`, 'm').exec(host)?.[1];
}

/** The fallback of `var(name, fallback)` where the stylesheet reads it (parentheses balanced), or undefined. */
function fallbackWhereRead(name: string): string | undefined {
  const at = stylesheet.indexOf(`var(${name}, `);
  if (at < 0) return undefined;
  let depth = 1;
  let end = at + `var(${name}, `.length;
  for (; end < stylesheet.length && depth > 0; end++) {
    if (stylesheet[end] === '(') depth++;
    if (stylesheet[end] === ')') depth--;
  }
  return stylesheet.slice(at + `var(${name}, `.length, end - 1);
}

const sorted = (names: string[]) => [...names].sort();

describe('docs/element.md', () => {
  it('lists every attribute with its property and default, as the element has them', async () => {
    const { PayinCheckout } = await import('../../src/widget/index.js');
    const declared = PayinCheckout.properties as Record<string, { attribute?: string }>;
    const element = new PayinCheckout() as unknown as Record<string, unknown>;
    const shown = (value: unknown) =>
      Array.isArray(value) ? value.join(' ') : typeof value === 'string' ? JSON.stringify(value) : String(value);
    const actual = Object.entries(declared).map(([property, options]) => [
      options.attribute ?? property,
      property,
      shown(element[property]),
    ]);
    const documented = rows(section('Attributes and properties')).map(([attribute, property, , fallback]) => [
      attribute,
      property,
      fallback,
    ]);
    expect(documented).toEqual(actual);
  });

  it('names the events, slots, CSS parts and custom properties the class documents, and every part drawn', () => {
    expect(rows(section('Events')).map(([name]) => name)).toEqual(tagged('event'));
    expect(rows(section('Slots')).map(([name]) => name)).toEqual(tagged('slot'));
    const parts = [
      ...section('CSS parts')
        .split('```')[0]!
        .matchAll(/`([a-z-]+)`/g),
    ].map(([, name]) => name!);
    expect(sorted(parts)).toEqual(sorted(tagged('csspart')));
    expect(sorted(partsDrawn())).toEqual(sorted(tagged('csspart')));
    expect(rows(section('CSS custom properties')).map(([name]) => name)).toEqual(tagged('cssproperty'));
  });

  it("gives each custom property's default, and sets on an ancestor only those without a default on :host", () => {
    const table = rows(section('CSS custom properties'));
    const expected = table.map(([name]) => [name, hostDefault(name!) ?? fallbackWhereRead(name!) ?? 'inherit']);
    expect(table.map(([name, fallback]) => [name, fallback])).toEqual(expected);
    // A default on :host is declared on the element itself, so it beats whatever an ancestor's rule hands down.
    const text = section('CSS custom properties').split('\n|')[0]!;
    const sentence = text.split(/(?<=\.)\s/).find((s) => s.includes('any ancestor'));
    expect(sentence, 'the sentence on setting them on an ancestor').toBeDefined();
    const inherited = [...sentence!.matchAll(/`(--payin-[a-z-]+)`/g)].map(([, name]) => name!);
    expect(sorted(inherited)).toEqual(sorted(table.map(([name]) => name!).filter((name) => !hostDefault(name))));
  });
});
