/**
 * Short names in the script-tag build for the stylesheet's classes, which only the element's own shadow tree
 * sees, and the names the build checks its minifier against (translation keys and screens, which are not its own).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parseSync } from 'vite';
import { type TemplateLiteral, walk } from './syntax-tree.js';

/**
 * The members of the Translation interface. Translation keys keep their names in every build: a shop overrides a
 * text by its key (the element's `texts`), so they are public. The build checks that the minifier renames none.
 */
export function translationKeys(): string[] {
  const file = fileURLToPath(new URL('../src/widget/translations/translation.ts', import.meta.url));
  const program = parseSync(file, readFileSync(file, 'utf8'), { lang: 'ts' }).program as unknown as {
    body: { type: string; declaration?: { type: string; id?: { name: string }; body?: { body: { key?: { name?: string } }[] } } }[];
  };
  const declaration = program.body.find((s) => s.declaration?.id?.name === 'Translation')?.declaration;
  const names = (declaration?.body?.body ?? []).map((m) => m.key?.name).filter((n): n is string => !!n);
  if (names.length < 20) throw new Error(`${file}: the Translation interface was not found`);
  return names;
}

/** A class selector in a stylesheet (`.pay-body`); a number such as `.5em` is none. */
export const CLASS_SELECTOR = /\.(-?[_a-zA-Z][\w-]*)/g;

/**
 * The stylesheet's class names and their short names (`a`, `b`, ...), which minifyTemplates() writes into the
 * stylesheet and into the static text of every template's class attribute: only the element's own shadow tree
 * uses them (the styling API is its parts and custom properties), so no name is seen outside. A class that the
 * code also writes as a string of its own (`'primary'`, `'done'`, a screen's name such as `'error'`,
 * `'copy-scratch'`) keeps its name, since it may reach the attribute through an expression.
 */
export const SHORT_CLASSES: ReadonlyMap<string, string> = (() => {
  const dir = fileURLToPath(new URL('../src/widget/', import.meta.url));
  const strings = new Set<string>();
  let css = '';
  const visit = (node: object): void => {
    const n = node as { type?: string; value?: unknown; tag?: { name?: string }; quasi?: TemplateLiteral };
    if (n.type === 'Literal' && typeof n.value === 'string') strings.add(n.value);
    if (n.type === 'TaggedTemplateExpression' && n.tag?.name === 'css') css += n.quasi!.quasis.map((q) => q.value.raw).join('');
  };
  for (const file of readdirSync(dir, { recursive: true, encoding: 'utf8' })) {
    if (file.endsWith('.ts')) walk(parseSync(file, readFileSync(dir + file, 'utf8'), { lang: 'ts' }).program, visit);
  }
  const names = [...new Set(Array.from(css.matchAll(CLASS_SELECTOR), (m) => m[1]!))].filter((name) => !strings.has(name));
  const letters = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ';
  return new Map(names.map((name, i) => [name, `${letters[i % letters.length]}${i < letters.length ? '' : i}`]));
})();

/** The names in the Screen type (src/widget/views/view-context.ts), which key the translations' headings and hints. */
export function screenNames(): string[] {
  const file = fileURLToPath(new URL('../src/widget/views/view-context.ts', import.meta.url));
  const union = /export type Screen =([^;]*);/.exec(readFileSync(file, 'utf8'))?.[1];
  if (!union) throw new Error(`${file}: the Screen type was not found`);
  return Array.from(union.matchAll(/'(\w+)'/g), (m) => m[1]!);
}
