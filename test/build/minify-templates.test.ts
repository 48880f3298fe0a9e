/**
 * The script-tag build's template minifier (build/minify-templates.ts) on the shapes the element's templates use:
 * what it takes away must render nothing, and what an attribute says must stay as written.
 */
// biome-ignore-all lint/suspicious/noTemplateCurlyInString: the sources minified are TypeScript with their ${...} written out.
import { describe, expect, it } from 'vitest';
import { minifyTemplateLiterals } from '../../build/minify-templates.js';

const minified = (source: string) => minifyTemplateLiterals(source, 'element.ts') ?? source;

describe('the template minifier', () => {
  it('takes away the indentation between tags and bindings, which renders nothing there', () => {
    const source = 'const t = html`<div class="screen">\n    ${a}\n    <p>x</p>\n  </div>`;';
    expect(minified(source)).toBe('const t = html`<div class="screen">${a}<p>x</p></div>`;');
  });

  it('keeps the space between two bindings in an attribute value: two ids are not one', () => {
    // aria-labelledby="copy-amount label-amount" had become "copy-amountlabel-amount", an id that names nothing.
    const source = 'const t = html`<button aria-labelledby="copy-${key} ${labelledBy}" class="${a} ${b}">x</button>`;';
    expect(minified(source)).toBe(source);
  });

  it('keeps a space between attributes written on lines of their own, as one space', () => {
    const source = 'const t = html`<button\n    id=${id}\n    aria-labelledby=${ids}\n  >x</button>`;';
    expect(minified(source)).toBe('const t = html`<button id=${id} aria-labelledby=${ids} >x</button>`;');
  });
});
