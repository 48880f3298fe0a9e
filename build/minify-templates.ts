import { transform as transformCss } from 'lightningcss';
import { parseSync, type Plugin } from 'vite';
import { CLASS_SELECTOR, SHORT_CLASSES } from './short-names.js';
import { applyEdits, type Edit, type TemplateLiteral, walk } from './syntax-tree.js';

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
export function minifyTemplates(): Plugin {
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
              // Not before a "/>": an unquoted value would take the slash in.
              .replace(/(\s[\w-]+=)"([^\s"'`=<>]+)"(?!\/)/g, '$1$2');
            inClass = /\bclass="[^"]*$/.test(raw);
            if (text !== raw) edits.push({ start: q.start + 1, end: q.start + 1 + raw.length, text });
          }
        }
      });
      return edits.length === 0 ? null : { code: applyEdits(code, edits), map: null };
    },
  };
}
