import { expect, fixture, html, oneEvent, waitUntil } from '@open-wc/testing';
import { formatAmount } from '../../src/widget/format.js';
import { PayinCheckout } from '../../src/widget/index.js';
import { fakeScenario, mount, part, untilScreen, within } from './support/helpers.js';

describe('<payin-checkout>', () => {
  it('is registered once, and importing it again does not throw', async () => {
    expect(customElements.get('payin-checkout')).to.equal(PayinCheckout);
    await import(new URL('../../src/widget/payin-checkout.ts?again', import.meta.url).href);
    expect(customElements.get('payin-checkout')).to.equal(PayinCheckout);
  });

  it('has sensible defaults and reads its attributes', async () => {
    const plain = await fixture<PayinCheckout>(html`<payin-checkout></payin-checkout>`);
    expect(plain.endpoint).to.equal('/payin');
    expect(plain.pollInterval).to.equal(3000);
    expect(plain.autostart).to.equal(false);
    expect(plain.screen).to.equal('start');
    const set = await fixture<PayinCheckout>(
      html`<payin-checkout endpoint="/shop/pay" order-id="A-1" methods="sbp upi" poll-interval="5000" autostart></payin-checkout>`,
    );
    expect([set.endpoint, set.orderId, set.methods, set.pollInterval, set.autostart]).to.deep.equal([
      '/shop/pay',
      'A-1',
      'sbp upi',
      5000,
      true,
    ]);
    expect(set.screen).to.equal('choose');
  });

  it('sends the order-token its page rendered with the create request, and nothing when there is none', async () => {
    const fake = await fakeScenario();
    const bodies: unknown[] = [];
    const original = window.fetch;
    window.fetch = (input, init) => {
      if (String(input instanceof Request ? input.url : input).endsWith('/payments')) bodies.push(JSON.parse(String(init?.body)));
      return original(input, init);
    };
    try {
      const withToken = await mount(fake.endpoint, { method: 'upi' });
      withToken.orderToken = 'eyJvcmRlcklkIjoiQS0xIn0.c2lnbmF0dXJl';
      await withToken.start();
      const without = await mount(fake.endpoint, { method: 'upi' });
      await without.start();
    } finally {
      window.fetch = original;
    }
    expect(bodies).to.have.length(2);
    expect((bodies[0] as { orderToken?: string }).orderToken).to.equal('eyJvcmRlcklkIjoiQS0xIn0.c2lnbmF0dXJl');
    expect(bodies[1]).to.not.have.property('orderToken');
  });

  it('dispatches bubbling, composed events that reach the document', async () => {
    const fake = await fakeScenario();
    const el = await mount(fake.endpoint, { method: 'upi' });
    const created = oneEvent(document, 'payin-created');
    void el.start();
    const event = await within(created, 5000, 'payin-created on the document');
    expect(event.bubbles && event.composed).to.equal(true);
    expect(event.detail.payment.id).to.be.a('string');
    expect(event.detail.resumed).to.equal(false);
  });

  it('offers header, footer and success slots', async () => {
    const fake = await fakeScenario();
    const el = await fixture<PayinCheckout>(html`<payin-checkout endpoint=${fake.endpoint} order-id="slots-${Date.now()}" method="upi">
      <img slot="header" alt="Shop logo" src="data:image/gif;base64,R0lGODlhAQABAAAAACw=" />
      <p slot="footer">Questions? Call us.</p>
      <p slot="success" id="next">We ship tomorrow.</p>
    </payin-checkout>`);
    const names = [...el.shadowRoot!.querySelectorAll('slot')].map((s) => s.name);
    expect(names).to.include.members(['header', 'footer']);
    await el.start();
    await untilScreen(el, 'pay');
    await fake.set({ state: 'finished' });
    await untilScreen(el, 'paid');
    const success = el.shadowRoot!.querySelector<HTMLSlotElement>('slot[name="success"]')!;
    expect(success.assignedElements()[0]!.id).to.equal('next');
  });

  it('is styled through --payin-* custom properties and parts', async () => {
    const el = await fixture<PayinCheckout>(html`<payin-checkout order-id="x" method="upi"></payin-checkout>`);
    el.style.setProperty('--payin-color-accent', 'rgb(1, 2, 3)');
    expect(getComputedStyle(part(el, 'pay-button')!).backgroundColor).to.equal('rgb(1, 2, 3)');
  });

  it('speaks the language of its lang attribute, else of the closest ancestor or the page', async () => {
    const own = await fixture<PayinCheckout>(html`<payin-checkout lang="ru" order-id="x" method="upi"></payin-checkout>`);
    expect(part(own, 'pay-button')!.textContent).to.equal('Оплатить');
    const wrapper = await fixture<HTMLDivElement>(
      html`<div lang="hi-IN"><payin-checkout order-id="x" method="upi"></payin-checkout></div>`,
    );
    const inherited = wrapper.querySelector('payin-checkout')!;
    await inherited.updateComplete;
    expect(part(inherited, 'pay-button')!.textContent).to.equal('भुगतान करें');
    const fallback = await fixture<PayinCheckout>(html`<payin-checkout lang="de" order-id="x" method="upi"></payin-checkout>`);
    expect(part(fallback, 'pay-button')!.textContent).to.equal('Pay');
    // A tag that is the name of a property every object has is no language either.
    for (const lang of ['constructor', 'valueOf', 'toString']) {
      const odd = await fixture<PayinCheckout>(html`<payin-checkout lang=${lang} order-id="x" method="upi"></payin-checkout>`);
      expect(part(odd, 'pay-button')?.textContent, lang).to.equal('Pay');
    }
  });

  it('follows the page when it changes its language (a shop’s language switch), on the screen it shows', async () => {
    const wrapper = await fixture<HTMLDivElement>(html`<div lang="en"><payin-checkout order-id="x" method="upi"></payin-checkout></div>`);
    const el = wrapper.querySelector('payin-checkout')!;
    await el.updateComplete;
    expect(part(el, 'pay-button')!.textContent).to.equal('Pay');
    wrapper.lang = 'ru';
    await waitUntil(() => part(el, 'pay-button')?.textContent === 'Оплатить', 'the Russian pay button', { timeout: 3000 });
    const page = document.documentElement.getAttribute('lang');
    try {
      document.documentElement.lang = 'hi';
      wrapper.removeAttribute('lang');
      await waitUntil(() => part(el, 'pay-button')?.textContent === 'भुगतान करें', 'the Hindi pay button', { timeout: 3000 });
    } finally {
      if (page === null) document.documentElement.removeAttribute('lang');
      else document.documentElement.lang = page;
    }
  });

  it('keeps its screen, and the shopper’s focus, while the texts of the page’s new language load', async () => {
    // A blank element in between took the QR away from a shopper scanning it, and their focus to the page.
    const wrapper = await fixture<HTMLDivElement>(html`<div lang="en"><payin-checkout order-id="x" method="upi"></payin-checkout></div>`);
    const el = wrapper.querySelector('payin-checkout')!;
    await el.updateComplete;
    part(el, 'pay-button')!.focus();
    const gone: string[] = [];
    const watch = new MutationObserver(() => {
      if (!part(el, 'pay-button')) gone.push(el.shadowRoot!.innerHTML);
    });
    watch.observe(el.shadowRoot!, { childList: true, subtree: true, characterData: true });
    wrapper.lang = 'ml'; // loaded by no other test of this file: its texts come over the network now
    await waitUntil(() => part(el, 'pay-button')?.textContent === 'പണമടയ്ക്കുക', 'the Malayalam pay button', { timeout: 3000 });
    watch.disconnect();
    expect(gone, 'renders without the pay button').to.deep.equal([]);
    expect(el.shadowRoot!.activeElement).to.equal(part(el, 'pay-button'));
  });

  it('keeps its own text layout inside a shop’s centred, indented or unwrapped container', async () => {
    // Inherited properties cross the shadow boundary: a centred column mixed centred labels with left-aligned values.
    const wrapper = await fixture<HTMLDivElement>(
      html`<div style="text-align: center; text-indent: 3em; white-space: nowrap"><payin-checkout order-id="x" method="upi"></payin-checkout></div>`,
    );
    const el = wrapper.querySelector('payin-checkout')!;
    await el.updateComplete;
    const heading = getComputedStyle(part(el, 'heading')!);
    expect([heading.textAlign, heading.textIndent, heading.whiteSpace]).to.deep.equal(['start', '0px', 'normal']);
  });

  it('formats amounts for the locale and the currency', async () => {
    const fake = await fakeScenario();
    const en = await mount(fake.endpoint, { method: 'upi', lang: 'en-IN' });
    await en.start();
    await untilScreen(en, 'pay');
    expect(part(en, 'amount')!.querySelector('.value')!.textContent).to.equal('₹499.00');
    const ru = await mount(fake.endpoint, { method: 'sbp', lang: 'ru' });
    await ru.start();
    await untilScreen(ru, 'pay');
    expect(part(ru, 'amount')!.querySelector('.value')!.textContent!.replace(/\s/g, ' ')).to.equal('1 500,00 ₽');
    expect(part(ru, 'instruction')!.textContent).to.contain('Переведите по СБП');
  });

  it('writes an amount as it came when the currency is no ISO 4217 code or the amount no number', () => {
    expect(formatAmount('12.50', 'inr', 'en-IN')).to.equal('₹12.50');
    expect(formatAmount('12.50', 'XX1', 'en')).to.equal('12.50 XX1');
    expect(formatAmount('12,50', 'EUR', 'en')).to.equal('12,50 EUR');
    expect(formatAmount('12.50', '', 'en')).to.equal('12.50');
  });
});
