/**
 * A shop's own texts: the `texts` property (or its JSON attribute) replaces the texts it names, by key, in the
 * element's language, and leaves every other text of the translation as it was.
 */
import { expect, fixture, html } from '@open-wc/testing';
import type { PayinCheckout } from '../../src/widget/index.js';
import { fakeScenario, mount, part, untilScreen } from './support/helpers.js';

describe('the shop’s own texts', () => {
  it('replace the texts they name, a heading among its siblings, and nothing else', async () => {
    const fake = await fakeScenario({ noStream: true });
    const el = await mount(fake.endpoint, { method: 'upi' });
    el.texts = { payButton: 'Pay now', headings: { pay: 'Scan to pay' }, paidAmount: (amount) => `Thank you for ${amount}.` };
    await el.updateComplete;
    expect(part(el, 'pay-button')!.textContent).to.equal('Pay now');
    expect(part(el, 'heading')!.textContent).to.equal('Payment');
    await el.start();
    await untilScreen(el, 'pay');
    expect(part(el, 'heading')!.textContent).to.equal('Scan to pay');
    expect(part(el, 'amount')!.textContent).to.contain('Amount');
    await fake.set({ state: 'finished' });
    await untilScreen(el, 'paid');
    expect(part(el, 'heading')!.textContent).to.equal('Payment received');
    expect(part(el, 'paid-amount')!.textContent).to.equal('Thank you for ₹499.00.');
  });

  it('come from the JSON attribute too, over the element’s own language', async () => {
    const el = await fixture<PayinCheckout>(html`<payin-checkout lang="ta" endpoint="/nowhere" order-id="A-1" method="upi"
      texts='{"payButton": "இப்போதே செலுத்து"}'></payin-checkout>`);
    await el.updateComplete;
    expect(part(el, 'pay-button')!.textContent).to.equal('இப்போதே செலுத்து');
    expect(part(el, 'heading')!.textContent).to.equal('பணம் செலுத்துதல்');
  });

  it('of the wrong kind from the JSON attribute are left out: the paid screen still shows, with its headings', async () => {
    // JSON cannot carry a function, nor should a typo in a group wipe the whole group.
    const fake = await fakeScenario({ noStream: true });
    const el = await mount(fake.endpoint, { method: 'upi' });
    el.setAttribute('texts', '{"paidAmount": "Thank you!", "headings": "Pay", "payButton": "Pay now"}');
    await el.start();
    await untilScreen(el, 'pay');
    expect(part(el, 'heading')!.textContent).to.equal('Pay by transfer');
    await fake.set({ state: 'finished' });
    await untilScreen(el, 'paid');
    await el.updateComplete;
    expect(part(el, 'heading')!.textContent).to.equal('Payment received');
    expect(part(el, 'paid-amount')!.textContent).to.equal('Paid ₹499.00.');
  });
});
