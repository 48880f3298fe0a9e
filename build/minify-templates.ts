import { transform as transformCss } from 'lightningcss';
import { type Plugin, parseSync } from 'vite';
import { applyEdits, type Edit, type TemplateLiteral, walk } from './syntax-tree.js';

/**
 * Lit templates are string literals, which a JavaScript minifier leaves as written: this minifies them in the
 * script-tag build and its parts, the technique of the minify-html-literals and rollup-plugin-minify-html-literals
 * packages that Lit's documentation points to, done here on the TypeScript source through the parser Vite exports
 * (so a `${...}` inside a template is never touched). In `html` and `svg` templates, whitespace between a tag or
 * binding and a binding, or with a line break between two tags, goes (but inside a tag, where it parts attributes
 * or the words of a value, it stays one space): the element's templates put such whitespace only in flex and grid
 * containers and between block boxes, where it renders nothing (a space between two tags on one source line stays,
 * as the countdown's label and clock need it). Any other run of whitespace with a line break in it (the source's
 * indentation) becomes one space, which HTML renders the same (the element has no <pre> or <textarea> template). A
 * `css` stylesheet goes through Lightning CSS (the CSS minifier Vite itself uses).
 */
export function minifyTemplates(): Plugin {
  return {
    name: 'payin-minify-templates',
    apply: 'build',
    transform(code, id) {
      if (!/\/src\/widget\/.*\.ts$/.test(id)) return null;
      const minified = minifyTemplateLiterals(code, id);
      return minified === null ? null : { code: minified, map: null };
    },
  };
}

/** `code` (TypeScript of the file `id`) with its html, svg and css templates minified, or null when it has none. */
export function minifyTemplateLiterals(code: string, id: string): string | null {
  if (!/\b(html|svg|css)`/.test(code)) return null;
  const edits: Edit[] = [];
  walk(parseSync(id, code, { lang: 'ts' }).program, (node) => {
    const n = node as { type?: string; tag?: { type: string; name?: string }; quasi?: TemplateLiteral };
    const tag = n.type === 'TaggedTemplateExpression' && n.tag?.type === 'Identifier' ? n.tag.name : undefined;
    if (tag === 'css') {
      if (n.quasi!.quasis.length !== 1) throw new Error(`${id}: a css\`...\` stylesheet with \${...} cannot be minified`);
      const [q] = n.quasi!.quasis;
      const { code: css } = transformCss({ filename: 'element.css', code: Buffer.from(q!.value.raw), minify: true });
      edits.push({
        start: q!.start + 1,
        end: q!.start + 1 + q!.value.raw.length,
        text: css.toString().replace(/[`\\]|\$\{/g, (c) => `\\${c}`),
      });
    } else if (tag === 'html' || tag === 'svg') {
      // The template's text so far, its bindings left out: whether a piece starts inside a tag.
      let before = '';
      for (const q of n.quasi!.quasis) {
        const raw = q.value.raw;
        const inTag = before.lastIndexOf('<') > before.lastIndexOf('>');
        const text = inTag && /^\s/.test(raw) ? ` ${betweenTags(raw.trimStart())}` : betweenTags(raw);
        if (text !== raw) edits.push({ start: q.start + 1, end: q.start + 1 + raw.length, text });
        before += raw;
      }
    }
  });
  return edits.length === 0 ? null : applyEdits(code, edits);
}

/**
 * A piece of a template between bindings, minified as content between tags. Not a piece that starts inside a tag
 * (after an attribute's binding): whitespace there parts two attributes, or two words of a value
 * (`aria-labelledby="${a} ${b}"`), and stays one space.
 */
function betweenTags(raw: string): string {
  return raw
    .replace(/(^|>)\s*\n\s*(?=<|$)/g, '$1')
    .replace(/^\s+(?=<|$)|(>)\s+$/g, '$1')
    .replace(/\s*\n\s*/g, ' ');
}
