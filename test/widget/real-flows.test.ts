import { expect, waitUntil } from '@open-wc/testing';
import { mount, nextEvent, openFrame, part, parts, recordEvents, uid, untilScreen } from './support/helpers.js';
import { payerDoes, REAL_ENDPOINT, repricedInAnotherTab, requireRealBackend, servicePayments, shopReprices } from './support/real.js';

describe('against the real proxy and sandbox', function () {
  this.timeout(30_000);
  before(requireRealBackend);

  it('creates, prepares, shows the requisites and QR, and announces the payment once when the payer pays', async () => {
    const orderId = uid('real');
    const el = await mount(REAL_ENDPOINT, { orderId, method: 'upi', pollInterval: 500 });
    const events = recordEvents(el);
    part(el, 'pay-button')!.click();
    await untilScreen(el, 'preparing', 10_000);
    await untilScreen(el, 'pay', 10_000);
    expect(el.payment!.amount).to.equal('499.00');
    expect(el.payment!.qr).to.match(/^upi:\/\/pay\?/);
    expect(part(el, 'qr')).to.exist;
    await payerDoes(orderId, 'pay');
    await nextEvent(el, 'payin-paid', 10_000);
    await untilScreen(el, 'paid');
    await el.refresh();
    expect(events.filter((e) => e.name === 'payin-paid')).to.have.length(1);
    expect(events.filter((e) => e.name === 'payin-created')).to.have.length(1);
    expect(await servicePayments(orderId)).to.have.length(1);
  });

  it('says the order is not paid in full, and fires payin-underpaid, when the payer paid less than the price', async () => {
    const orderId = uid('real');
    const el = await mount(REAL_ENDPOINT, { orderId, method: 'upi', pollInterval: 500 });
    const events = recordEvents(el);
    await el.start();
    await untilScreen(el, 'pay', 10_000);
    await payerDoes(orderId, 'pay', '450.00');
    await untilScreen(el, 'underpaid', 10_000);
    expect(part(el, 'paid-amount')!.textContent).to.contain('450.00').and.contain('499.00');
    expect(events.filter((e) => e.name === 'payin-underpaid')).to.have.length(1);
    expect(events.filter((e) => e.name === 'payin-paid')).to.have.length(0);
  });

  it('takes the old payment away when the shop re-prices the order, and starts again at the new price', async () => {
    const orderId = uid('real');
    const el = await mount(REAL_ENDPOINT, { orderId, method: 'upi', pollInterval: 500 });
    const events = recordEvents(el);
    await el.start();
    await untilScreen(el, 'pay', 10_000);
    const old = el.payment!.id;
    await repricedInAnotherTab(orderId, '999.00');
    await untilScreen(el, 'superseded', 10_000);
    expect(part(el, 'qr')).to.not.exist;
    expect(events.filter((e) => e.name === 'payin-superseded')).to.have.length(1);
    part(el, 'restart-button')!.click();
    await untilScreen(el, 'pay', 10_000);
    expect([el.payment!.amount, el.payment!.id === old]).to.deep.equal(['999.00', false]);
  });

  it('offers no new payment for a re-priced order whose old payment was paid anyway: the shopper is sent to the shop', async () => {
    const orderId = uid('real');
    const page = await openFrame({ endpoint: REAL_ENDPOINT, 'order-id': orderId, method: 'upi', autostart: '' });
    try {
      await waitUntil(() => page.el().screen === 'pay', 'the pay screen', { timeout: 10_000 });
      const old = page.el().payment!.id;
      await repricedInAnotherTab(orderId, '999.00');
      await waitUntil(() => page.el().screen === 'superseded', 'the superseded screen', { timeout: 10_000 });
      // The shopper had scanned the old QR: the bank pays the old details after all, and the page comes back to it.
      await payerDoes(orderId, 'pay', undefined, old);
      // The proxy hears of it by the service's callback, a moment after the bank paid; a reload before that finds the
      // old payment superseded and unpaid, a final screen that follows it no further (under load the callback came
      // after the one reload this test made). Reloaded until the proxy has heard, 10 times at most.
      for (let i = 0; i < 10; i++) {
        await page.reload();
        await waitUntil(() => page.el().payment !== undefined && page.el().screen === 'superseded', 'the old payment', { timeout: 10_000 });
        if (page.el().payment!.state === 'finished') break;
        await new Promise((resolve) => setTimeout(resolve, 500));
      }
      expect(page.el().payment!.state, 'the old payment, paid').to.equal('finished');
      const el = page.el();
      expect([el.screen, el.payment!.id]).to.deep.equal(['superseded', old]);
      await el.updateComplete;
      // Booleans and text only: chai would walk an element of the frame's own window as a plain object, for good.
      expect([!!part(el, 'restart-button'), !!part(el, 'other-method-button')], 'a way to pay the order again').to.deep.equal([
        false,
        false,
      ]);
      expect(part(el, 'result')?.textContent).to.contain('please contact the shop');
    } finally {
      page.remove();
    }
  });

  it('tells a shopper whose order the shop no longer prices to reload, not that the service is down', async () => {
    const orderId = uid('real');
    await shopReprices(orderId, null);
    const el = await mount(REAL_ENDPOINT, { orderId, method: 'upi' });
    const error = nextEvent(el, 'payin-error');
    part(el, 'pay-button')!.click();
    expect((await error).detail).to.deep.include({ code: 'not_found', retryable: false });
    await untilScreen(el, 'error');
    expect(part(el, 'error')!.textContent).to.contain('Reload the page');
    expect(await servicePayments(orderId)).to.have.length(0);
  });

  it('resumes the same payment after a reload, without a second create', async () => {
    const orderId = uid('real');
    const page = await openFrame({ endpoint: REAL_ENDPOINT, 'order-id': orderId, method: 'upi', autostart: '' });
    try {
      await waitUntil(() => page.el().screen === 'pay', 'the pay screen', { timeout: 10_000 });
      const id = page.el().payment!.id;
      await page.reload();
      await waitUntil(() => page.el().screen === 'pay', 'the pay screen after the reload', { timeout: 10_000 });
      expect(page.el().payment!.id).to.equal(id);
      expect(page.events().find((e) => e.name === 'payin-created')!.detail.resumed).to.equal(true);
      expect(await servicePayments(orderId)).to.have.length(1);
      await payerDoes(orderId, 'pay');
      await waitUntil(() => page.el().screen === 'paid', 'the paid screen', { timeout: 10_000 });
      await page.reload();
      await waitUntil(() => page.el().screen === 'paid', 'the paid screen after another reload', { timeout: 10_000 });
      await waitUntil(() => page.events().some((e) => e.name === 'payin-paid'), 'the resumed paid event', { timeout: 3000 });
      expect(
        page
          .events()
          .filter((e) => e.name === 'payin-paid')
          .map((e) => e.detail.resumed),
      ).to.deep.equal([true]);
    } finally {
      page.remove();
    }
  });

  it('shows the expiry, and "start again" creates a new payment', async () => {
    const orderId = uid('real');
    const el = await mount(REAL_ENDPOINT, { orderId, method: 'upi', pollInterval: 500 });
    await el.start();
    await untilScreen(el, 'pay', 10_000);
    const expired = nextEvent(el, 'payin-expired', 10_000);
    await payerDoes(orderId, 'expire');
    await expired;
    await untilScreen(el, 'expired');
    part(el, 'restart-button')!.click();
    await untilScreen(el, 'pay', 10_000);
    expect(await servicePayments(orderId)).to.have.length(2);
  });

  it('lets the shopper choose SBP and shows the phone, the bank and the instruction', async () => {
    const orderId = uid('real');
    const el = await mount(REAL_ENDPOINT, { orderId, methods: 'sbp upi', lang: 'ru', pollInterval: 500 });
    expect(el.screen).to.equal('choose');
    parts<HTMLButtonElement>(el, 'method-button')[0]!.click();
    await untilScreen(el, 'pay', 10_000);
    expect(el.payment!.method).to.equal('sbp');
    expect(el.payment!.currency).to.equal('RUB');
    expect(part(el, 'requisites')!.textContent).to.contain(el.payment!.requisites!.address);
    if (!el.payment!.qr) expect(part(el, 'instruction')!.textContent).to.contain('СБП');
    const failed = nextEvent(el, 'payin-failed', 10_000);
    await payerDoes(orderId, 'cancel');
    await failed;
    await untilScreen(el, 'failed');
  });

  it('offers a card transfer by its name, and labels the card number it pays to as one, not as an account', async () => {
    const orderId = uid('real');
    const el = await mount(REAL_ENDPOINT, { orderId, methods: 'sbp c2c', lang: 'ru', pollInterval: 500 });
    const methods = parts<HTMLButtonElement>(el, 'method-button');
    expect(methods.map((b) => b.textContent!.trim())).to.deep.equal(['СБП', 'Перевод на карту']);
    methods[1]!.click();
    await untilScreen(el, 'pay', 10_000);
    expect(el.payment!.method).to.equal('c2c');
    const requisite = part(el, 'requisite')!;
    const [label, value] = ['dt', '.value'].map((selector) => requisite.querySelector(selector)!.textContent);
    // Russian bank apps transfer to a card and to an account through different forms: a 16-digit card number
    // named an account sends the shopper to the form that takes a 20-digit account and a BIC.
    expect([label, value]).to.deep.equal(['Номер карты', el.payment!.requisites!.address]);
    el.lang = 'en';
    await el.updateComplete;
    expect(part(el, 'requisite')!.querySelector('dt')!.textContent).to.equal('Card number');
  });
});
