import { expect, waitUntil } from '@open-wc/testing';
import { fakeScenario, mount, nextEvent, part, parts, recordEvents, text, uid, untilScreen } from './support/helpers.js';
import { ManualClock } from './support/manual-clock.js';

/** The Clipboard API refused, as a browser without the permission does, and the copy command answered by `execCommand`; returns the undo. */
function refuseClipboardApi(execCommand: (command: string) => boolean): () => void {
  const original = navigator.clipboard.writeText;
  const originalExec = document.execCommand;
  Object.defineProperty(navigator.clipboard, 'writeText', { configurable: true, value: () => Promise.reject(new Error('denied')) });
  document.execCommand = execCommand;
  return () => {
    Object.defineProperty(navigator.clipboard, 'writeText', { configurable: true, value: original });
    document.execCommand = originalExec;
  };
}

describe('the payment flow', () => {
  it('shows "preparing payment details" until the service assigns requisites', async () => {
    const clock = new ManualClock();
    const fake = await fakeScenario({ requisitesAfterMs: 60_000, noStream: true });
    const el = await mount(fake.endpoint, { method: 'upi', pollInterval: 1000, clock });
    part(el, 'pay-button')!.click();
    await untilScreen(el, 'preparing');
    expect(text(el)).to.contain('Preparing payment details');
    expect(part(el, 'amount')!.textContent).to.contain('499.00');
    await fake.configure({ clockSkewMs: 60_000 }); // a minute later for the service: requisites assigned
    // The element learns it from its next check: time moves a poll interval at a time until the answer is in.
    await waitUntil(
      async () => {
        await clock.advance(1200);
        return el.screen === 'pay';
      },
      'the pay screen',
      { timeout: 5000, interval: 20 },
    );
    expect(part(el, 'requisites')!.textContent).to.contain('shop@okbank');
  });

  it('creates at once with autostart and only once however often start() is called', async () => {
    const fake = await fakeScenario();
    const el = await mount(fake.endpoint, { method: 'upi', autostart: true });
    await Promise.all([el.start(), el.start(), el.start()]);
    await untilScreen(el, 'pay');
    const stats = await fake.stats();
    expect(stats.creates).to.equal(1);
  });

  it('lets the shopper choose the method first, and choose again', async () => {
    const fake = await fakeScenario();
    const el = await mount(fake.endpoint, { methods: 'sbp upi' });
    expect(el.screen).to.equal('choose');
    const buttons = parts<HTMLButtonElement>(el, 'method-button');
    expect(buttons.map((b) => b.textContent!.trim())).to.deep.equal(['SBP', 'UPI']);
    buttons[0]!.click();
    await untilScreen(el, 'pay');
    expect(el.payment!.method).to.equal('sbp');
    part(el, 'other-method-button')!.click();
    await untilScreen(el, 'choose');
    parts<HTMLButtonElement>(el, 'method-button')[1]!.click();
    await untilScreen(el, 'pay');
    expect(el.payment!.method).to.equal('upi');
  });

  it('follows the host when it sets another method on an open payment, with a new payment', async () => {
    const fake = await fakeScenario();
    const el = await mount(fake.endpoint, { method: 'upi', autostart: true });
    await untilScreen(el, 'pay');
    const first = el.payment!.id;
    el.method = 'sbp';
    await waitUntil(() => el.payment?.method === 'sbp', 'the SBP payment', { timeout: 8000 });
    await untilScreen(el, 'pay');
    expect(el.payment!.method).to.equal('sbp');
    expect(el.payment!.id).not.to.equal(first);
    expect((await fake.stats()).creates).to.equal(2);
  });

  it('follows the host to another order while the first create is still on its way', async () => {
    const fake = await fakeScenario({ createDelayMs: 600 });
    const el = await mount(fake.endpoint, { orderId: uid('order-a'), method: 'upi', autostart: true });
    const second = uid('order-b');
    await waitUntil(async () => (await fake.stats()).creates === 1, 'the first create at the proxy', { timeout: 5000 });
    el.orderId = second;
    // Each create is answered 600 ms after it arrives, so the first answer is sent before the second: had the
    // element taken it, the first order's payment would be the one shown (a second payment never replaces it).
    await untilScreen(el, 'pay');
    expect(el.payment!.orderId).to.equal(second);
    expect((await fake.stats()).creates).to.equal(2);
  });

  it('without a QR shows the SBP instruction naming the bank, and copy buttons', async () => {
    const fake = await fakeScenario();
    const el = await mount(fake.endpoint, { method: 'sbp' });
    await el.start();
    await untilScreen(el, 'pay');
    expect(part(el, 'qr')).to.equal(null);
    expect(part(el, 'instruction')!.textContent).to.contain('SBP').and.contain('Sberbank');
    expect(parts(el, 'copy-button')).to.have.length(2);
  });

  it('copies the phone number and says so visibly for two seconds', async () => {
    const clock = new ManualClock();
    const fake = await fakeScenario();
    const el = await mount(fake.endpoint, { method: 'sbp', clock });
    await el.start();
    await untilScreen(el, 'pay');
    let copied = '';
    const original = navigator.clipboard.writeText;
    Object.defineProperty(navigator.clipboard, 'writeText', { configurable: true, value: async (t: string) => void (copied = t) });
    try {
      const button = parts<HTMLButtonElement>(el, 'copy-button')[1]!;
      button.click();
      await waitUntil(() => button.textContent!.trim() === 'Copied', 'the button to say Copied', { timeout: 2000 });
      expect(copied).to.equal('+79001234567');
      expect(el.shadowRoot!.querySelector('[role="status"]')!.textContent).to.contain('Copied');
      await clock.advance(1999);
      await el.updateComplete;
      expect(button.textContent!.trim()).to.equal('Copied');
      await clock.advance(1);
      await el.updateComplete;
      expect(button.textContent!.trim()).to.equal('Copy');
      expect(el.shadowRoot!.querySelector('[role="status"]')!.textContent).not.to.contain('Copied');
    } finally {
      Object.defineProperty(navigator.clipboard, 'writeText', { configurable: true, value: original });
    }
  });

  it('falls back to the copy command when the Clipboard API refuses', async () => {
    const fake = await fakeScenario();
    const el = await mount(fake.endpoint, { method: 'upi' });
    await el.start();
    await untilScreen(el, 'pay');
    let commanded = '';
    const restore = refuseClipboardApi((command) => {
      commanded = `${command}:${(el.shadowRoot!.activeElement as HTMLTextAreaElement | null)?.value ?? ''}`;
      return true;
    });
    try {
      const button = parts<HTMLButtonElement>(el, 'copy-button')[0]!;
      button.click();
      await waitUntil(() => button.textContent!.trim() === 'Copied', 'the button to say Copied', { timeout: 2000 });
      expect(commanded).to.equal('copy:499.00');
      expect(el.shadowRoot!.querySelector('textarea')).to.equal(null);
    } finally {
      restore();
    }
  });

  it('selects the value for the shopper to copy by hand when the browser refuses both ways of copying', async () => {
    // Some in-app browsers and web views refuse the Clipboard API and the copy command alike: the button could do nothing.
    const fake = await fakeScenario();
    const el = await mount(fake.endpoint, { method: 'sbp' });
    await el.start();
    await untilScreen(el, 'pay');
    const restore = refuseClipboardApi(() => false);
    try {
      getSelection()!.removeAllRanges();
      const button = parts<HTMLButtonElement>(el, 'copy-button')[1]!;
      button.click();
      // Chromium keeps a selection inside a shadow tree on the shadow root's own getSelection.
      const selected = () => (el.shadowRoot as ShadowRoot & { getSelection(): Selection }).getSelection().toString();
      await waitUntil(() => selected() !== '', 'the phone number to be selected', { timeout: 2000 });
      expect(selected()).to.equal('+79001234567');
      expect(button.textContent!.trim()).to.equal('Copy'); // nothing was copied, and it does not say so
    } finally {
      restore();
    }
  });

  it('reports every state change and ends on a paid screen that shows what was actually paid', async () => {
    const fake = await fakeScenario();
    const el = await mount(fake.endpoint, { method: 'upi' });
    const events = recordEvents(el);
    await el.start();
    await untilScreen(el, 'pay');
    await fake.set({ state: 'in_check' });
    await untilScreen(el, 'checking');
    await fake.set({ state: 'finished', amount: '450.00' });
    await untilScreen(el, 'paid');
    expect(part(el, 'paid-amount')!.textContent).to.contain('450.00').and.contain('499.00');
    const states = events.filter((e) => e.name === 'payin-state').map((e) => e.detail.payment.state);
    expect(states).to.deep.equal(['pending', 'in_check', 'finished']);
    expect(events.filter((e) => e.name === 'payin-paid')).to.have.length(1);
    expect(events.find((e) => e.name === 'payin-paid')!.detail.resumed).to.equal(false);
  });

  it('shows the expiry with "start again", which creates a new payment', async () => {
    const fake = await fakeScenario();
    const el = await mount(fake.endpoint, { method: 'upi' });
    await el.start();
    await untilScreen(el, 'pay');
    const first = el.payment!.id;
    const expired = nextEvent(el, 'payin-expired');
    await fake.set({ state: 'expired' });
    await expired;
    await untilScreen(el, 'expired');
    part(el, 'restart-button')!.click();
    await untilScreen(el, 'pay');
    expect(el.payment!.id).to.not.equal(first);
    expect((await fake.stats()).newPayments).to.equal(2);
  });

  it('shows a failed (canceled) payment', async () => {
    const fake = await fakeScenario();
    const el = await mount(fake.endpoint, { method: 'upi' });
    await el.start();
    await untilScreen(el, 'pay');
    const failed = nextEvent(el, 'payin-failed');
    await fake.set({ state: 'canceled' });
    expect((await failed).detail.payment.outcome).to.equal('failed');
    await untilScreen(el, 'failed');
    expect(part(el, 'restart-button')).to.exist;
  });

  it('never renders what the service sends as markup', async () => {
    const fake = await fakeScenario({
      requisites: { address: '<img src=x id=evil>', recipient: '<b id=bold>R</b>', bank: '<i>B</i>' },
      qr: 'none',
    });
    const el = await mount(fake.endpoint, { method: 'sbp' });
    await el.start();
    await untilScreen(el, 'pay');
    expect(el.shadowRoot!.querySelector('#evil, #bold, img, b, i')).to.equal(null);
    expect(part(el, 'requisites')!.textContent).to.contain('<img src=x id=evil>');
  });

  it('reset() forgets the payment and shows the start again', async () => {
    const fake = await fakeScenario();
    const el = await mount(fake.endpoint, { method: 'upi' });
    await el.start();
    await untilScreen(el, 'pay');
    el.reset();
    await untilScreen(el, 'start');
    expect(el.payment).to.equal(undefined);
    expect(Object.keys(sessionStorage).some((k) => k.includes(el.orderId))).to.equal(false);
  });
});
