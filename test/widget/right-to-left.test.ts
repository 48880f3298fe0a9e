/**
 * Urdu lays the element out right to left, as a shopper who reads it expects: the start of every row is on the
 * right, the notice's bar on its right edge, the copy button to the left of what it copies. What is written left
 * to right stays so (a phone number, a UPI ID, an amount), and the QR is drawn as it is, never mirrored. The
 * direction is the texts', not the page's: English on an Urdu page stays left to right.
 */
import { expect, fixture, html } from '@open-wc/testing';
import type { PayinCheckout } from '../../src/widget/index.js';
import { styles } from '../../src/widget/payin-checkout.styles.js';
import { ur } from '../../src/widget/translations/ur.js';
import { drawScreen, SCREEN_CASES, screenHost } from './support/every-screen.js';
import { fakeScenario, mount, part, untilScreen } from './support/helpers.js';

const base = (el: PayinCheckout) => part(el, 'base')!;

/** The on-screen x of the first and the last character of an element's text. */
function ends(element: Element): [number, number] {
  const text = [...element.childNodes].find((n) => n.nodeType === Node.TEXT_NODE && n.textContent!.trim())!;
  const at = (i: number) => {
    const range = document.createRange();
    range.setStart(text, i);
    range.setEnd(text, i + 1);
    return range.getBoundingClientRect().left;
  };
  return [at(0), at(text.textContent!.length - 1)];
}

describe('right to left', () => {
  it('lays the Urdu checkout out mirrored, with values and the QR as they are', async () => {
    const fake = await fakeScenario({ noStream: true, requisites: { address: '+91 98765 43210', recipient: 'Ivan P.', bank: 'Sberbank' } });
    const el = await mount(fake.endpoint, { method: 'upi', lang: 'ur' });
    await el.start();
    await untilScreen(el, 'pay');
    expect(base(el).getAttribute('dir')).to.equal('rtl');
    expect(getComputedStyle(base(el)).direction).to.equal('rtl');
    expect(part(el, 'amount')!.textContent).to.contain('رقم');

    // The row starts on the right: the amount's value, then (to its left) its copy button.
    const amount = part(el, 'amount')!;
    const value = amount.querySelector('.value')!;
    const copy = amount.querySelector('[part="copy-button"]')!;
    expect(copy.getBoundingClientRect().right).to.be.below(value.getBoundingClientRect().left + 1);

    // A phone number and an amount read left to right inside the mirrored layout.
    const address = part(el, 'requisites')!.querySelector('.value')!;
    const [first, last] = ends(address);
    expect(first, 'the number begins on the left').to.be.below(last);
    const [amountFirst, amountLast] = ends(value);
    expect(amountFirst, 'the amount begins on the left').to.be.below(amountLast);
    expect(value.textContent).to.equal('₹499.00');

    // The QR is drawn unmirrored: nothing between it and the page flips it.
    for (let node: Element | null = part(el, 'qr'); node && node !== el; node = node.parentElement) {
      const style = getComputedStyle(node);
      expect([style.transform, style.scale], node.localName).to.deep.equal(['none', 'none']);
    }
  });

  it('puts the notice bar and the clock spacing on the side where the line starts', async () => {
    const { host, root } = screenHost();
    drawScreen(root, ur, 'ur', SCREEN_CASES.find((c) => c.name === 'pay, connection lost')!);
    const notice = getComputedStyle(root.querySelector('[part="notice"]')!);
    expect([notice.borderRightWidth, notice.borderLeftWidth]).to.deep.equal(['4px', '0px']);
    const clock = getComputedStyle(root.querySelector('[part="countdown"] .clock')!);
    expect(Number.parseFloat(clock.marginRight)).to.be.above(0);
    expect(clock.marginLeft).to.equal('0px');
    host.remove();
  });

  it('keeps a phone number on one line inside an Urdu sentence, whatever the width', () => {
    const { host, root } = screenHost();
    drawScreen(root, ur, 'ur', SCREEN_CASES.find((c) => c.name === 'pay, SBP banks')!);
    const hint = [...root.querySelectorAll('[part="bank-chooser"] .hint')].find((p) => p.textContent!.includes('SBP'))!;
    const text = [...hint.childNodes].find((n): n is Text => n instanceof Text && n.data.includes('SBP'))!;
    // The number: from its "+" to the end of the isolate it is written in.
    const [at, end] = [text.data.indexOf('+7'), text.data.indexOf('\u2069')];
    expect(text.data.slice(at, end).replace(/[^\d+-]/g, ''), 'the number in the sentence').to.equal('+7900123-45-67');
    // Broken at a space or a hyphen, an isolate written left to right inside lines written right to left ends the
    // first line at its left edge ("+7") and starts the next at its right edge ("900 123-45-67"): scattered.
    for (let width = 260; width <= 480; width += 2) {
      host.style.width = `${width}px`;
      const lines = new Set<number>();
      for (let i = at; i < end; i++) {
        if (!/[\d+-]/.test(text.data[i]!)) continue;
        const range = document.createRange();
        range.setStart(text, i);
        range.setEnd(text, i + 1);
        lines.add(Math.round(range.getBoundingClientRect().top));
      }
      expect(lines.size, `the number's lines at ${width} px`).to.equal(1);
    }
    host.remove();
  });

  it('takes the direction of its texts, not of the page', async () => {
    const page = await fixture<HTMLElement>(html`<div dir="rtl" lang="ur">
      <payin-checkout lang="en" endpoint="/nowhere" order-id="A-1" method="upi"></payin-checkout>
      <payin-checkout endpoint="/nowhere" order-id="A-2" method="upi"></payin-checkout>
    </div>`);
    const [english, urdu] = [...page.querySelectorAll('payin-checkout')] as PayinCheckout[];
    await english!.updateComplete;
    await urdu!.updateComplete;
    expect(getComputedStyle(base(english!)).direction).to.equal('ltr');
    expect(getComputedStyle(base(urdu!)).direction).to.equal('rtl');
    expect(part(urdu!, 'pay-button')!.textContent).to.equal('ادائیگی کریں');
  });

  it('has no left or right in its stylesheet, only the start and end of a line', () => {
    const physical = styles.cssText.match(
      /\b(?:margin|padding|border|inset)-(?:left|right)\b|[{;\s](?:left|right)\s*:|text-align:\s*(?:left|right)|float\s*:/g,
    );
    expect(physical).to.equal(null);
  });
});
