/**
 * No text overflows its box on a 320 px wide phone, on any screen, in any language: every case of
 * support/every-screen.ts drawn with the element's stylesheet in each translation (with the fonts of the machine:
 * Debian's fonts-noto-core, which the test command installs). A word that does not fit its button, a label that
 * pushes a row wider than the element, a layout that runs off the side when mirrored: each is found and named.
 */
import { expect } from '@open-wc/testing';
import { setViewport } from '@web/test-runner-commands';
import { en } from '../../src/widget/translations/en.js';
import { LANGUAGE_TAGS } from '../../src/widget/translations/language-tags.js';
import { LANGUAGES } from '../../src/widget/translations/languages.js';
import { overlay } from '../../src/widget/translations/overlay.js';
import type { Translation } from '../../src/widget/translations/translation.js';
import { drawScreen, SCREEN_CASES, screenHost } from './support/every-screen.js';

/** What sticks out: an element whose content is wider than its box, or that reaches past the element's sides. */
function overflows(host: HTMLElement, root: ShadowRoot): string[] {
  const outer = host.getBoundingClientRect();
  const found: string[] = [];
  for (const el of root.querySelectorAll<HTMLElement>('*')) {
    const style = getComputedStyle(el);
    if (style.display === 'inline' || el.closest('svg')) continue;
    const box = el.getBoundingClientRect();
    if (box.width === 0 && box.height === 0) continue; // not drawn (inside a closed fold)
    const what = `<${el.localName} class="${el.className}"> "${(el.textContent ?? '').replace(/\s+/g, ' ').trim().slice(0, 40)}"`;
    if (el.scrollWidth > el.clientWidth + 1) found.push(`${what}: content ${el.scrollWidth} px in a box of ${el.clientWidth} px`);
    if (box.left < outer.left - 0.5 || box.right > outer.right + 0.5) found.push(`${what}: reaches past the element`);
  }
  return found;
}

/** Every screen in `lang`, drawn in turn: what sticks out, by screen. */
async function problemsIn(lang: string): Promise<string[]> {
  const t: Translation = lang === 'en' ? en : await LANGUAGES.get(lang)!();
  const { host, root } = screenHost();
  const problems: string[] = [];
  for (const c of SCREEN_CASES) {
    drawScreen(root, t, lang, c);
    expect(host.getBoundingClientRect().width).to.equal(320);
    problems.push(...overflows(host, root).map((p) => `${c.name}: ${p}`));
  }
  host.remove();
  return problems;
}

describe('every text at 320 px', () => {
  before(async () => {
    await setViewport({ width: 320, height: 900 });
    document.body.style.margin = '0';
    document.body.style.fontFamily = 'sans-serif';
  });

  it('finds a word too long for its button (the check itself works)', () => {
    const { host, root } = screenHost();
    drawScreen(root, overlay(en, { payButton: 'Pay'.repeat(40) }), 'en', SCREEN_CASES[0]!);
    // The element breaks a long word (overflow-wrap); one that may not break shows that the check finds it.
    root.querySelector<HTMLElement>('.primary')!.style.whiteSpace = 'nowrap';
    const found = overflows(host, root);
    expect(found).to.have.length.above(0);
    expect(found.join('\n')).to.contain('<button class="button primary"> "PayPay');
    host.remove();
  });

  for (const lang of ['en', ...LANGUAGE_TAGS]) {
    it(`fits every screen in ${lang}`, async () => {
      const problems = await problemsIn(lang);
      expect(problems, problems.join('\n')).to.deep.equal([]);
    });
  }

  // A phone's text set to 150 % (Android's font size, iOS's larger text in Safari) or a shop's page with a larger
  // root font: the element's sizes are in rem, so its words grow while the screen stays 320 px wide.
  describe('with text at 150 % (a root font of 24 px)', () => {
    before(() => {
      document.documentElement.style.fontSize = '24px';
    });
    after(() => {
      document.documentElement.style.fontSize = '';
    });

    for (const lang of ['en', ...LANGUAGE_TAGS]) {
      it(`fits every screen in ${lang}`, async () => {
        const problems = await problemsIn(lang);
        expect(problems, problems.join('\n')).to.deep.equal([]);
      });
    }
  });
});
