/**
 * Short names in the script-tag build for names that only the element's own code and its language files see:
 * translation keys and the stylesheet's classes.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parseSync } from 'vite';
import { applyEdits, type Edit, type NamedNode, type TemplateLiteral, walk } from './syntax-tree.js';

/**
 * Members of the Translation interface that keep their names: those that are also a name outside the bundle (the
 * element's `methods`, the payment's `address`) and `locale` (a language file is checked by it). No key may be
 * read by a computed name (`t[key]`): the renamed one would not be found.
 */
const KEPT_TRANSLATION_KEYS = new Set('locale methods address'.split(' '));

/**
 * Every other translation key and its short name in the script and in the language files alike (`$0`, `$1`, ...:
 * names the minifier never gives a property of its own, as long as it renames fewer than a few thousand). The
 * keys are long words that each appear only a few times, so gzip cannot fold them: 0.2 kB of the script.
 */
export const SHORT_TRANSLATION_KEYS: ReadonlyMap<string, string> = (() => {
  const file = fileURLToPath(new URL('../src/widget/translations/translation.ts', import.meta.url));
  const program = parseSync(file, readFileSync(file, 'utf8'), { lang: 'ts' }).program as unknown as {
    body: { type: string; declaration?: { type: string; id?: { name: string }; body?: { body: { key?: { name?: string } }[] } } }[];
  };
  const declaration = program.body.find((s) => s.declaration?.id?.name === 'Translation')?.declaration;
  const names = (declaration?.body?.body ?? []).map((m) => m.key?.name).filter((n): n is string => !!n);
  if (names.length < 20) throw new Error(`${file}: the Translation interface was not found`);
  const alphabet = '0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ';
  return new Map(names.filter((n) => !KEPT_TRANSLATION_KEYS.has(n)).map((n, i) => [n, `$${alphabet[i]}`]));
})();

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

/**
 * Renames the keys of SHORT_TRANSLATION_KEYS wherever they are a property name in the widget's code (`t.payButton`,
 * `{payButton: ...}`, a method or class field of that name): the same name everywhere, so that a key that is also
 * an internal property (the status feed's `checkNow`, the screens' `copy`) stays consistent with itself.
 */
export function shortenTranslationKeys(code: string, id: string): string | null {
  const edits: Edit[] = [];
  walk(parseSync(id, code, { lang: 'ts' }).program, (node) => {
    const n = node as { type?: string; computed?: boolean; shorthand?: boolean; key?: NamedNode; property?: NamedNode };
    const key =
      n.type === 'MemberExpression'
        ? n.property
        : /^(Property|MethodDefinition|PropertyDefinition)$/.test(n.type ?? '')
          ? n.key
          : undefined;
    const short = key?.type === 'Identifier' && !n.computed ? SHORT_TRANSLATION_KEYS.get(key.name) : undefined;
    if (key && short) edits.push({ start: key.start, end: key.end, text: n.shorthand ? `${short}: ${key.name}` : short });
  });
  return edits.length === 0 ? null : applyEdits(code, edits);
}

/** The names in the Screen type (src/widget/views/view-context.ts), which key the translations' headings and hints. */
export function screenNames(): string[] {
  const file = fileURLToPath(new URL('../src/widget/views/view-context.ts', import.meta.url));
  const union = /export type Screen =([^;]*);/.exec(readFileSync(file, 'utf8'))?.[1];
  if (!union) throw new Error(`${file}: the Screen type was not found`);
  return Array.from(union.matchAll(/'(\w+)'/g), (m) => m[1]!);
}
