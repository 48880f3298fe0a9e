/**
 * The framework typings (dist/jsx/react.d.ts, preact.d.ts, vue.d.ts), written from custom-elements.json after the
 * bundle, so that they can never drift from the element.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import type { Plugin } from 'vite';

interface ManifestElement {
  name: string;
  tagName: string;
  /** The module to import the class from: one that also registers the tag, so that its global typings load. */
  modulePath: string;
  fields: string[];
  attributes: { name: string; type: string; description?: string }[];
  events: { name: string; description?: string }[];
}

export function jsxTypings({ manifest, outDir }: { manifest: string; outDir: string }): Plugin {
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
  // The top-level HTMLAttributes: Preact 11 has it only there, Preact 10 (10.29) there and under JSX.
  let out = `${HEADER}import type { HTMLAttributes } from 'preact';\n${imports(elements)}\n${EVENT_OF}`;
  for (const e of elements) {
    out += `\nexport type ${propsName(e, 'Preact')} = HTMLAttributes<${e.name}> &\n  ${jsxProps(e, (n) => `on${n}`)};\n`;
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
