/**
 * The final screens after money was received that the shop does not ship on as it is (an underpaid payment, a
 * re-priced order's payment paid anyway): nothing on them invites a second payment, whether the results part draws
 * them or, without it, the core. A superseded payment that was not paid still offers the order's new amount.
 */
import { expect } from '@open-wc/testing';
import type { PartName, Parts } from '../../src/widget/parts/part-types.js';
import { en } from '../../src/widget/translations/en.js';
import { drawScreen, SCREEN_CASES, screenHost } from './support/every-screen.js';

/** The case `name` of every-screen.ts, for a shopper offered two methods, with the results part or without any part. */
function drawn(name: string, withParts: boolean): ShadowRoot {
  const c = SCREEN_CASES.find((each) => each.name === name)!;
  const noParts = <K extends PartName>(_: K): Parts[K] | undefined => undefined;
  const { root } = screenHost();
  drawScreen(root, en, 'en', { ...c, context: { ...c.context, methods: ['upi', 'sbp'], ...(withParts ? {} : { part: noParts }) } });
  return root;
}

const waysToPayAgain = (root: ShadowRoot) =>
  [...root.querySelectorAll('[part=restart-button], [part=other-method-button]')].map((b) => b.getAttribute('part'));

describe('a final screen after money was received', () => {
  afterEach(() => {
    for (const host of document.querySelectorAll('body > div')) host.remove();
  });

  for (const withParts of [true, false]) {
    const by = withParts ? 'the results part' : 'the core alone';
    for (const name of ['underpaid', 'superseded, paid anyway']) {
      it(`${name}, drawn by ${by}: no new payment, and the shopper is sent to the shop`, () => {
        const root = drawn(name, withParts);
        expect(waysToPayAgain(root)).to.deep.equal([]);
        expect(root.textContent).to.contain('contact the shop');
      });
    }

    it(`superseded and not paid, drawn by ${by}: the order's new amount can be paid`, () => {
      expect(waysToPayAgain(drawn('superseded', withParts))).to.deep.equal(['restart-button', 'other-method-button']);
    });
  }
});
