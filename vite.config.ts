/**
 * The script-tag build: one self-contained file, dist/payin-checkout.iife.js, that a shop adds with
 * `<script src=".../payin-checkout.iife.js"></script>` and nothing else. Lit and qrcode are bundled in (qrcode
 * is CommonJS: qrcodeAsModules() below loads its core files as ES modules). The ES module build comes from tsc
 * (tsconfig.build.json) into the same dist/, so this build must never empty the folder. The React demo has its own config (demo/react/vite.config.ts).
 *
 * English is in the bundle; every other language is its own small file beside it (dist/payin-checkout.<lang>.js,
 * an ES module whose default export is the translation), which the script loads when an element first speaks it:
 * the script-tag build swaps src/widget/translations/languages.ts for languages.script.ts, which finds them.
 *
 * After the bundle, the same run writes the framework typings (dist/jsx/react.d.ts, preact.d.ts, vue.d.ts) from
 * custom-elements.json, so that they can never drift from the element: the manifest is generated from the
 * element's JSDoc by `cem analyze`, which therefore runs before this build.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { build as esbuild } from 'esbuild';
import { minify as terser } from 'terser';
import { transform as transformCss } from 'lightningcss';
import { defineConfig, parseSync, type Plugin } from 'vite';

/**
 * Properties that only the element's own modules read and write (controller members, the options the controllers
 * are built with, the flow's state, the screens' context, and on the last line the qrcode core's mask patterns,
 * penalty weights, Reed-Solomon encoder and bit matrix), renamed by the minifier like local variables. A name
 * belongs here only if nothing outside the bundle sees it: not Lit's lifecycle, not the public API (`start`,
 * `payment`, attributes), not the proxy's JSON or what sessionStorage keeps, and not a translation key (the
 * language files are built apart; SHORT_TRANSLATION_KEYS renames those), nor a screen's name (the translations'
 * headings and hints are keyed by it and read as `t.headings[screen]`: so not the flow state's `late`; the build
 * checks this one), and no DOM or host object, and no other module of the bundle, has a property of that name (so
 * not qrcode's `size`, `data`, `get`, `set` or `encode`).
 */
const INTERNAL_PROPERTIES = new RegExp(
  `^(?:${`countdown feed tabs sync announcedSeconds remainingMs toExpiryMs setTarget follow leading leave stop stuck
  tapped banks want onZero onPayment onTrouble onFatal onDeadline onLead onPeerPayment phase trouble stalled flow
  isPhone bankQuery filterBanks setOtherDevice record retryAfterMs toDetail streamOpen failures
  interval isDark PATTERN\\d+ N[1-4] genPoly degree initialize reservedBit isReserved xor`
    .split(/\s+/)
    .join('|')})$`,
);

for (const screen of screenNames()) {
  if (INTERNAL_PROPERTIES.test(screen))
    throw new Error(`INTERNAL_PROPERTIES has "${screen}", a screen's name: English would lose that key`);
}

/** The languages beyond English: each becomes dist/payin-checkout.<lang>.js, loaded on demand from beside the script. */
const LANGUAGES = ['ru', 'hi'];

/**
 * Members of the Translation interface that keep their names: those that are also a name outside the bundle (the
 * element's `methods`, the payment's `address`), `locale` (a language file is checked by it), and those read by a
 * computed name (the error screen's `t[action]`).
 */
const KEPT_TRANSLATION_KEYS = new Set('locale methods address retry startAgain'.split(' '));

/**
 * Every other translation key and its short name in the script and in the language files alike (`$0`, `$1`, ...:
 * names the minifier never gives a property of its own, as long as it renames fewer than a few thousand). The
 * keys are long words that each appear only a few times, so gzip cannot fold them: 0.2 kB of the script.
 */
export const SHORT_TRANSLATION_KEYS: ReadonlyMap<string, string> = (() => {
  const file = fileURLToPath(new URL('src/widget/translations/translation.ts', import.meta.url));
  const program = parseSync(file, readFileSync(file, 'utf8'), { lang: 'ts' }).program as unknown as {
    body: { type: string; declaration?: { type: string; id?: { name: string }; body?: { body: { key?: { name?: string } }[] } } }[];
  };
  const declaration = program.body.find((s) => s.declaration?.id?.name === 'Translation')?.declaration;
  const names = (declaration?.body?.body ?? []).map((m) => m.key?.name).filter((n): n is string => !!n);
  if (names.length < 20) throw new Error(`${file}: the Translation interface was not found`);
  const alphabet = '0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ';
  return new Map(names.filter((n) => !KEPT_TRANSLATION_KEYS.has(n)).map((n, i) => [n, `$${alphabet[i]}`]));
})();

export default defineConfig({
  // Nothing in public/ belongs in the bundle's folder.
  publicDir: false,
  plugins: [
    qrcodeAsModules(),
    minifyTemplates(),
    {
      name: 'payin-short-translation-keys',
      apply: 'build',
      transform: (code, id) => (/\/src\/widget\/.*\.ts$/.test(id) ? shortenTranslationKeys(code, id) : null),
    },
    terserPass(),
    languageFiles(LANGUAGES),
    jsxTypings({ manifest: 'custom-elements.json', outDir: 'dist/jsx' }),
  ],
  resolve: {
    alias: [
      {
        find: /^\.\/languages\.js$/,
        replacement: fileURLToPath(new URL('src/widget/translations/languages.script.ts', import.meta.url)),
      },
    ],
  },
  build: {
    outDir: 'dist',
    emptyOutDir: false,
    target: 'es2022',
    minify: true,
    sourcemap: false,
    rolldownOptions: {
      output: {
        // No Symbol.toStringTag on the PayinCheckout global: nothing reads it, and it costs bytes.
        generatedCode: { symbols: false },
        minify: { compress: true, mangle: true, mangleProps: { include: INTERNAL_PROPERTIES } },
      },
    },
    copyPublicDir: false,
    lib: {
      entry: 'src/widget/index.ts',
      formats: ['iife'],
      name: 'PayinCheckout',
      fileName: () => 'payin-checkout.iife.js',
    },
  },
});

/** A class selector in a stylesheet (`.pay-body`); a number such as `.5em` is none. */
const CLASS_SELECTOR = /\.(-?[_a-zA-Z][\w-]*)/g;

/**
 * The stylesheet's class names and their short names (`a`, `b`, ...), which minifyTemplates() writes into the
 * stylesheet and into the static text of every template's class attribute: only the element's own shadow tree
 * uses them (the styling API is its parts and custom properties), so no name is seen outside. A class that the
 * code also writes as a string of its own (`'primary'`, `'done'`, a screen's name such as `'error'`,
 * `'copy-scratch'`) keeps its name, since it may reach the attribute through an expression.
 */
const SHORT_CLASSES: ReadonlyMap<string, string> = (() => {
  const dir = fileURLToPath(new URL('src/widget/', import.meta.url));
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
 * Lit templates are string literals, which a JavaScript minifier leaves as written: this minifies them in the
 * script-tag build. In `html` and `svg` templates, whitespace between a tag or binding and a binding, or with a
 * line break between two tags, goes: the element's templates put such whitespace only in flex and grid containers
 * and between block boxes, where it renders nothing (a space between two tags on one source line stays, as the
 * countdown's label and clock need it). Any other run of whitespace with a line break in it (the source's
 * indentation) becomes one space, which HTML renders the same (the element has no <pre> or <textarea>
 * template), and a static attribute value that HTML can take unquoted loses its quotes. A `css` stylesheet goes
 * through Lightning CSS (the CSS engine Vite itself uses). Works on the
 * TypeScript source, through the parser Vite exports, so that a `${...}` inside a template is never touched.
 */
function minifyTemplates(): Plugin {
  return {
    name: 'payin-minify-templates',
    apply: 'build',
    transform(code, id) {
      if (!/\/src\/widget\/.*\.ts$/.test(id) || !/\b(html|svg|css)`/.test(code)) return null;
      const edits: Edit[] = [];
      walk(parseSync(id, code, { lang: 'ts' }).program, (node) => {
        const n = node as { type?: string; tag?: { type: string; name?: string }; quasi?: TemplateLiteral };
        const tag = n.type === 'TaggedTemplateExpression' && n.tag?.type === 'Identifier' ? n.tag.name : undefined;
        if (tag === 'css') {
          if (n.quasi!.quasis.length !== 1) this.error(`${id}: a css\`...\` stylesheet with \${...} cannot be minified`);
          const [q] = n.quasi!.quasis;
          const { code: css } = transformCss({ filename: 'element.css', code: Buffer.from(q!.value.raw), minify: true });
          edits.push({
            start: q!.start + 1,
            end: q!.start + 1 + q!.value.raw.length,
            text: css
              .toString()
              .replace(CLASS_SELECTOR, (selector, name: string) => (SHORT_CLASSES.has(name) ? `.${SHORT_CLASSES.get(name)}` : selector))
              .replace(/[`\\]|\$\{/g, (c) => `\\${c}`),
          });
        } else if (tag === 'html' || tag === 'svg') {
          let inClass = false;
          for (const q of n.quasi!.quasis) {
            const raw = q.value.raw;
            // Static class names come first in an attribute (`class="copy ${...}"`): after a ${...} only its end.
            if (inClass && !raw.startsWith('"')) this.error(`${id}: write the static classes before the \${...} in \`${raw}\``);
            const text = raw
              .replace(/(^|>)\s*\n\s*(?=<|$)/g, '$1')
              .replace(/^\s+(?=<|$)|(>)\s+$/g, '$1')
              .replace(/\s*\n\s*/g, ' ')
              .replace(
                /(\bclass=")([^"]*)/g,
                (_, attribute: string, names: string) => attribute + names.replace(/[^\s]+/g, (name) => SHORT_CLASSES.get(name) ?? name),
              )
              .replace(/(\s[\w-]+=)"([^\s"'`=<>]+)"/g, '$1$2');
            inClass = /\bclass="[^"]*$/.test(raw);
            if (text !== raw) edits.push({ start: q.start + 1, end: q.start + 1 + raw.length, text });
          }
        }
      });
      return edits.length === 0 ? null : { code: applyEdits(code, edits), map: null };
    },
  };
}

/**
 * Renames the keys of SHORT_TRANSLATION_KEYS wherever they are a property name in the widget's code (`t.payButton`,
 * `{payButton: ...}`, a method or class field of that name): the same name everywhere, so that a key that is also
 * an internal property (the status feed's `checkNow`, the screens' `copy`) stays consistent with itself.
 */
function shortenTranslationKeys(code: string, id: string): string | null {
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
function screenNames(): string[] {
  const file = fileURLToPath(new URL('src/widget/views/view-context.ts', import.meta.url));
  const union = /export type Screen =([^;]*);/.exec(readFileSync(file, 'utf8'))?.[1];
  if (!union) throw new Error(`${file}: the Screen type was not found`);
  return Array.from(union.matchAll(/'(\w+)'/g), (m) => m[1]!);
}

/** Calls `visit` on every object in a parsed program (nodes and their lists), each before what it holds. */
function walk(node: unknown, visit: (node: object) => void): void {
  if (!node || typeof node !== 'object') return;
  visit(node);
  for (const value of Object.values(node)) walk(value, visit);
}

/** A replacement of the source text from `start` to `end`. */
interface Edit {
  start: number;
  end: number;
  text: string;
}

/** `code` with `edits` made, which must not overlap; the last first, so that earlier offsets stay right. */
function applyEdits(code: string, edits: Edit[]): string {
  let out = code;
  for (const e of edits.sort((a, b) => b.start - a.start)) out = out.slice(0, e.start) + e.text + out.slice(e.end);
  return out;
}

interface NamedNode {
  type: string;
  name: string;
  start: number;
  end: number;
}

interface TemplateLiteral {
  quasis: { start: number; value: { raw: string } }[];
}

/**
 * qrcode is CommonJS: bundled as it is, each of the core files that qr-matrix.ts imports is wrapped in a
 * module-loader closure and its functions stay properties with their long names (`exports.getSymbolTotalCodewords`),
 * which no minifier may rename. Its files are plain (`const x = require('./y')`, `exports.name = ...`,
 * `module.exports = Class`), so this loads each one as the same code written as an ES module: the functions become
 * top-level bindings that tree-shaking and mangling reach (0.8 kB gzip of the script). Anything else in a file
 * (a future version written differently) stops the build instead of bundling a half-converted module.
 */
function qrcodeAsModules(): Plugin {
  return {
    name: 'payin-qrcode-as-modules',
    apply: 'build',
    enforce: 'pre',
    load(id) {
      if (!/\/node_modules\/qrcode\/lib\/core\/[\w-]+\.js$/.test(id)) return null;
      const dir = id.slice(0, id.lastIndexOf('/') + 1);
      const hasDefault = (file: string) => /^module\.exports = /m.test(readFileSync(`${dir}${file}.js`, 'utf8'));
      const code = readFileSync(id, 'utf8')
        .replace(/^const (\w+) = require\('\.\/([\w-]+)'\)\.(\w+)$/gm, "import { $3 as $1 } from './$2.js'")
        .replace(/^const (\w+) = require\('\.\/([\w-]+)'\)$/gm, (_, local: string, file: string) =>
          hasDefault(file) ? `import ${local} from './${file}.js'` : `import * as ${local} from './${file}.js'`,
        )
        .replace(/^exports\.(\w+) = function(?: \w+)? ?\(/gm, 'export function $1 (')
        .replace(/^exports\.(\w+) = /gm, 'export const $1 = ')
        .replace(/\bexports\.(\w+)/g, '$1')
        .replace(/^module\.exports = (\w+)$/m, 'export default $1');
      if (/\brequire\(|\bexports\b/.test(code)) this.error(`${id} is not in the CommonJS shape qrcodeAsModules() converts`);
      return code;
    },
  };
}

/**
 * A second compression pass by terser over the minified script: it folds what Rolldown's minifier leaves
 * (measured: about 0.1 kB of gzip off the script). Compression only: names were already mangled, and a second
 * mangling saved nothing. The end-to-end suite runs this very file.
 */
function terserPass(): Plugin {
  return {
    name: 'payin-terser-pass',
    apply: 'build',
    async generateBundle(_, bundle) {
      for (const chunk of Object.values(bundle)) {
        if (chunk.type !== 'chunk') continue;
        const { code } = await terser(chunk.code, { ecma: 2020, compress: { passes: 3 }, mangle: false });
        if (!code) this.error(`terser gave no code for ${chunk.fileName}`);
        chunk.code = code;
      }
    },
  };
}

/** dist/payin-checkout.<lang>.js for each language: `export default` its translation, minified, in UTF-8. */
function languageFiles(languages: string[]): Plugin {
  return {
    name: 'payin-language-files',
    apply: 'build',
    async closeBundle() {
      for (const lang of languages) {
        await esbuild({
          stdin: {
            contents: `export { ${lang} as default } from './src/widget/translations/${lang}.ts';`,
            resolveDir: fileURLToPath(new URL('.', import.meta.url)),
            loader: 'ts',
          },
          outfile: `dist/payin-checkout.${lang}.js`,
          bundle: true,
          format: 'esm',
          target: 'es2022',
          minify: true,
          charset: 'utf8',
          logLevel: 'warning',
          plugins: [
            {
              name: 'payin-short-translation-keys',
              setup(build) {
                build.onLoad({ filter: /\/src\/widget\/.*\.ts$/ }, ({ path }) => {
                  const code = readFileSync(path, 'utf8');
                  return { contents: shortenTranslationKeys(code, path) ?? code, loader: 'ts' };
                });
              },
            },
          ],
        });
      }
    },
  };
}

interface ManifestElement {
  name: string;
  tagName: string;
  /** The module to import the class from: one that also registers the tag, so that its global typings load. */
  modulePath: string;
  fields: string[];
  attributes: { name: string; type: string; description?: string }[];
  events: { name: string; description?: string }[];
}

function jsxTypings({ manifest, outDir }: { manifest: string; outDir: string }): Plugin {
  return {
    name: 'payin-jsx-typings',
    apply: 'build',
    closeBundle() {
      if (!existsSync(manifest)) {
        // Not fatal here, so that the bundle alone can be built; the package test fails on the missing typings.
        this.warn(
          `${manifest} is missing, so no JSX typings were written: run \`cem analyze --config custom-elements-manifest.config.mjs\` before \`vite build\`.`,
        );
        return;
      }
      const elements = readElements(JSON.parse(readFileSync(manifest, 'utf8')));
      if (elements.length === 0)
        throw new Error(`${manifest} declares no custom element: is the class's @tagName / customElement JSDoc there?`);
      mkdirSync(outDir, { recursive: true });
      writeFileSync(`${outDir}/react.d.ts`, reactTypings(elements));
      writeFileSync(`${outDir}/preact.d.ts`, preactTypings(elements));
      writeFileSync(`${outDir}/vue.d.ts`, vueTypings(elements));
    },
  };
}

interface RawMember {
  kind?: string;
  name?: string;
  static?: boolean;
  readonly?: boolean;
  privacy?: string;
  inheritedFrom?: unknown;
}

interface RawModule {
  path: string;
  declarations?: Record<string, unknown>[];
  exports?: { kind?: string; name?: string; declaration?: { name?: string } }[];
}

/** A valid custom element name: lowercase, starts with a letter, has a hyphen. */
const TAG = /^[a-z][a-z0-9._]*-[a-z0-9._-]*$/;

function readElements(json: unknown): ManifestElement[] {
  const modules = (json as { modules?: RawModule[] }).modules ?? [];
  const out: ManifestElement[] = [];
  // Prefer an index module that re-exports the class, then the module that defines the tag, then the class's own.
  const exporter = (name: string, own: string) =>
    modules.find((m) => /(^|\/)index\.ts$/.test(m.path) && m.exports?.some((e) => e.kind === 'js' && e.name === name))?.path ??
    modules.find((m) => m.exports?.some((e) => e.kind === 'custom-element-definition' && e.declaration?.name === name))?.path ??
    own;
  for (const mod of modules) {
    for (const d of mod.declarations ?? []) {
      if (!d.customElement || typeof d.tagName !== 'string' || typeof d.name !== 'string') continue;
      if (!TAG.test(d.tagName)) {
        throw new Error(
          `custom-elements.json gives ${d.name} the tag name "${d.tagName}": the analyzer could not read the tag. ` +
            'Put `@tagname payin-checkout` in the class JSDoc (or define the element with a string literal).',
        );
      }
      const members = (d.members as RawMember[] | undefined) ?? [];
      const attributes = (d.attributes as { name: string; type?: { text?: string }; description?: string }[] | undefined) ?? [];
      const events = (d.events as { name?: string; description?: string }[] | undefined) ?? [];
      out.push({
        name: d.name,
        tagName: d.tagName,
        modulePath: exporter(d.name, mod.path),
        fields: members
          .filter((m) => m.kind === 'field' && m.name && !m.static && !m.readonly && !m.inheritedFrom)
          .filter((m) => (m.privacy ?? 'public') === 'public' && !m.name!.startsWith('_'))
          .map((m) => m.name!),
        attributes: attributes.map((a) => ({ name: a.name, type: a.type?.text ?? 'string', description: a.description })),
        events: events.filter((e): e is { name: string; description?: string } => !!e.name),
      });
    }
  }
  return out;
}

const HEADER = '// Generated from custom-elements.json by the build (vite.config.ts). Do not edit.\n';

/** `dist/widget/payin-checkout-element.js` (or its src/ .ts) -> `../widget/payin-checkout-element.js`, seen from dist/jsx. */
function importPath(modulePath: string): string {
  return `../${modulePath.replace(/^(\.\/)?(src|dist)\//, '').replace(/\.ts$/, '.js')}`;
}

function imports(elements: ManifestElement[]): string {
  return elements.map((e) => `import type { ${e.name} } from '${importPath(e.modulePath)}';\n`).join('');
}

/** Attribute values are text; a boolean attribute may also be given as true/false. */
function attributeType(text: string): string {
  if (/\bboolean\b/.test(text)) return 'boolean | string';
  if (/\bnumber\b/.test(text)) return 'number | string';
  return 'string';
}

function doc(text: string | undefined, indent: string): string {
  return text ? `${indent}/** ${text.replace(/\*\//g, '*\\/').replace(/\s+/g, ' ').trim()} */\n` : '';
}

/** Properties (set as properties by React 19 and Preact), attributes by name, and `on<event-name>` listeners. */
function jsxProps(e: ManifestElement, eventProp: (name: string) => string): string {
  const fields = e.fields.map((f) => `'${f}'`).join(' | ') || 'never';
  let body = `Partial<Pick<${e.name}, Extract<${fields}, keyof ${e.name}>>> & {\n`;
  for (const a of e.attributes) {
    if (e.fields.includes(a.name)) continue;
    body += `${doc(a.description, '    ')}    '${a.name}'?: ${attributeType(a.type)};\n`;
  }
  for (const ev of e.events)
    body += `${doc(ev.description, '    ')}    '${eventProp(ev.name)}'?: (event: EventOf<'${ev.name}'>) => void;\n`;
  return `${body}  }`;
}

const EVENT_OF = 'type EventOf<K extends string> = K extends keyof HTMLElementEventMap ? HTMLElementEventMap[K] : CustomEvent;\n';

function propsName(e: ManifestElement, framework: string): string {
  return `${e.name}${framework}Props`;
}

function reactTypings(elements: ManifestElement[]): string {
  let out = `${HEADER}import type { DetailedHTMLProps, HTMLAttributes } from 'react';\n${imports(elements)}\n${EVENT_OF}`;
  for (const e of elements) {
    out += `\nexport type ${propsName(e, 'React')} = DetailedHTMLProps<HTMLAttributes<${e.name}>, ${e.name}> &\n  ${jsxProps(e, (n) => `on${n}`)};\n`;
  }
  out += "\ndeclare module 'react' {\n  namespace JSX {\n    interface IntrinsicElements {\n";
  for (const e of elements) out += `      '${e.tagName}': ${propsName(e, 'React')};\n`;
  return `${out}    }\n  }\n}\n`;
}

function preactTypings(elements: ManifestElement[]): string {
  let out = `${HEADER}import type { JSX } from 'preact';\n${imports(elements)}\n${EVENT_OF}`;
  for (const e of elements) {
    out += `\nexport type ${propsName(e, 'Preact')} = JSX.HTMLAttributes<${e.name}> &\n  ${jsxProps(e, (n) => `on${n}`)};\n`;
  }
  out += "\ndeclare module 'preact' {\n  namespace JSX {\n    interface IntrinsicElements {\n";
  for (const e of elements) out += `      '${e.tagName}': ${propsName(e, 'Preact')};\n`;
  return `${out}    }\n  }\n}\n`;
}

/** Vue templates: `@payin-paid` is type-checked as the prop `onPayinPaid`, `order-id` as `orderId`. */
function vueTypings(elements: ManifestElement[]): string {
  const camel = (name: string) => name.replace(/-([a-z])/g, (_, c: string) => c.toUpperCase());
  let out = `${HEADER}import type { DefineComponent } from 'vue';\n${imports(elements)}\n${EVENT_OF}`;
  for (const e of elements) {
    const fields = e.fields.map((f) => `'${f}'`).join(' | ') || 'never';
    let body = `Partial<Pick<${e.name}, Extract<${fields}, keyof ${e.name}>>> & {\n`;
    for (const a of e.attributes) {
      if (e.fields.includes(camel(a.name))) continue;
      body += `${doc(a.description, '  ')}  '${camel(a.name)}'?: ${attributeType(a.type)};\n`;
    }
    for (const ev of e.events) {
      const prop = camel(`on-${ev.name}`);
      body += `${doc(ev.description, '  ')}  '${prop}'?: (event: EventOf<'${ev.name}'>) => void;\n`;
    }
    out += `\nexport type ${propsName(e, 'Vue')} = ${body}};\n`;
  }
  out += "\ndeclare module 'vue' {\n  interface GlobalComponents {\n";
  for (const e of elements) out += `    '${e.tagName}': DefineComponent<${propsName(e, 'Vue')}>;\n`;
  return `${out}  }\n}\n`;
}
