import { expect, waitUntil } from '@open-wc/testing';
import { emulateMedia, sendKeys } from '@web/test-runner-commands';
import type { PayinCheckout } from '../../src/widget/index.js';
import { fakeScenario, mount, part, untilScreen } from './support/helpers.js';
import { ManualClock } from './support/manual-clock.js';
import { watchRequests } from './support/requests.js';

async function accessible(el: PayinCheckout, state: string) {
  await el.updateComplete;
  try {
    await expect(el).to.be.accessible();
  } catch (error) {
    throw new Error(`axe found violations on the ${state} screen: ${(error as Error).message}`);
  }
}

/** WCAG's contrast ratio of two computed `rgb(...)` colors. */
function contrast(a: string, b: string): number {
  const luminance = (color: string) => {
    const [r = 0, g = 0, bl = 0] = (color.match(/[\d.]+/g) ?? []).map(Number).map((v) => {
      const c = v / 255;
      return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
    });
    return 0.2126 * r + 0.7152 * g + 0.0722 * bl;
  };
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x);
  return (hi! + 0.05) / (lo! + 0.05);
}

describe('accessibility', () => {
  it('has no axe violations on any screen, in light and dark', async () => {
    for (const scheme of ['light', 'dark'] as const) {
      await emulateMedia({ colorScheme: scheme });
      const fake = await fakeScenario({ requisitesAfterMs: 1500, noStream: true });
      const choose = await mount(fake.endpoint, { methods: 'sbp upi' });
      await accessible(choose, `choose (${scheme})`);
      const el = await mount(fake.endpoint, { method: 'upi', pollInterval: 100 });
      await accessible(el, `start (${scheme})`);
      void el.start();
      await untilScreen(el, 'preparing');
      await accessible(el, `preparing (${scheme})`);
      await untilScreen(el, 'pay');
      await accessible(el, `pay (${scheme})`);
      await fake.configure({ failStatus: 1, failWith: 503 });
      await el.refresh();
      await accessible(el, `pay with a notice (${scheme})`);
      await fake.set({ state: 'in_check' });
      await untilScreen(el, 'checking');
      await accessible(el, `checking (${scheme})`);
      await fake.set({ state: 'finished', amount: '500.00' });
      await untilScreen(el, 'paid');
      await accessible(el, `paid (${scheme})`);
      for (const [state, screen] of [
        ['expired', 'expired'],
        ['failed', 'failed'],
      ] as const) {
        const other = await mount(fake.endpoint, { method: 'sbp' });
        await other.start();
        await untilScreen(other, 'pay');
        await accessible(other, `sbp pay without QR (${scheme})`);
        await fake.set({ state });
        await untilScreen(other, screen);
        await accessible(other, `${screen} (${scheme})`);
      }
      const broken = await fakeScenario({ failCreates: 1, failWith: 502 });
      const error = await mount(broken.endpoint, { method: 'upi' });
      await error.start();
      await untilScreen(error, 'error');
      await accessible(error, `error (${scheme})`);
    }
    await emulateMedia({ colorScheme: 'light' });
  });

  it('has no axe violations on the phone screens: the app chooser, the bank chooser, the open fold, the late screen', async () => {
    const C2B = 'https://qr.nspk.ru/AD10006M8KH1LSBP9B6PG3B6F8S51A3O?type=02&bank=100000000111&sum=150000&cur=RUB&crc=C08B';
    for (const scheme of ['light', 'dark'] as const) {
      await emulateMedia({ colorScheme: scheme });
      const fake = await fakeScenario({ noStream: true });
      const upi = await mount(fake.endpoint, { method: 'upi', platform: 'android', noRemember: true });
      await upi.start();
      await untilScreen(upi, 'pay');
      await accessible(upi, `phone UPI pay (${scheme})`);
      part<HTMLDetailsElement>(upi, 'other-device')!.open = true;
      await accessible(upi, `phone UPI pay, fold open (${scheme})`);
      const banks = await fakeScenario({ noStream: true, qr: C2B });
      const sbp = await mount(banks.endpoint, { method: 'sbp', platform: 'ios', noRemember: true });
      await sbp.start();
      await untilScreen(sbp, 'pay');
      await waitUntil(() => part(sbp, 'bank-link'), 'the bank list', { timeout: 5000 });
      await accessible(sbp, `phone SBP bank chooser (${scheme})`);
      await banks.set({ expiresInMs: 0 });
      await untilScreen(sbp, 'late');
      await accessible(sbp, `late (${scheme})`);
    }
    await emulateMedia({ colorScheme: 'light' });
  });

  it('keeps the bank search’s placeholder at 4.5:1 in light and dark (axe does not check placeholders)', async () => {
    const C2B = 'https://qr.nspk.ru/AD10006M8KH1LSBP9B6PG3B6F8S51A3O?type=02&bank=100000000111&sum=150000&cur=RUB&crc=C08B';
    try {
      for (const scheme of ['light', 'dark'] as const) {
        await emulateMedia({ colorScheme: scheme });
        const banks = await fakeScenario({ noStream: true, qr: C2B });
        const sbp = await mount(banks.endpoint, { method: 'sbp', platform: 'android', noRemember: true });
        await sbp.start();
        await untilScreen(sbp, 'pay');
        await waitUntil(() => part(sbp, 'bank-search'), 'the bank search', { timeout: 5000 });
        const placeholder = getComputedStyle(part(sbp, 'bank-search')!, '::placeholder').color;
        const background = getComputedStyle(part(sbp, 'base')!).backgroundColor;
        const ratio = contrast(placeholder, background);
        expect(ratio, `${scheme}: "${placeholder}" on "${background}"`).to.be.at.least(4.5);
      }
    } finally {
      await emulateMedia({ colorScheme: 'light' });
    }
  });

  it('says in its live region that the connection is lost, then that the payment arrived', async () => {
    // The notice appears on the pay screen without moving focus: only the live region tells a screen reader.
    const clock = new ManualClock();
    const fake = await fakeScenario({ noStream: true });
    const requests = watchRequests(fake.endpoint);
    try {
      const el = await mount(fake.endpoint, { method: 'upi', pollInterval: 1000, clock });
      const spoken = () => el.shadowRoot!.querySelector('.sr-only[role="status"]')!.textContent!.trim();
      await el.start();
      await untilScreen(el, 'pay');
      await fake.configure({ failStatus: 1, failWith: 503 });
      await clock.until(() => requests.made('status') === 1, 'the first check');
      await requests.answered();
      await el.updateComplete;
      expect(part(el, 'notice')!.textContent).to.contain('Connection lost');
      expect(spoken()).to.equal('Connection lost. Retrying…');
      await fake.set({ state: 'finished' });
      await clock.advance(2000);
      await untilScreen(el, 'paid');
      expect(spoken()).to.equal('Payment received');
    } finally {
      requests.restore();
    }
  });

  it('says in its live region that a payment could not be started, when it started by itself', async () => {
    // autostart: the shopper never touched the element, so focus stays where it was and the error screen is silent.
    const fake = await fakeScenario({ failCreates: 1, failWith: 502 });
    const el = await mount(fake.endpoint, { method: 'upi', autostart: true });
    await untilScreen(el, 'error');
    expect(el.matches(':focus-within')).to.equal(false);
    const spoken = el.shadowRoot!.querySelector('.sr-only[role="status"]')!.textContent!.trim();
    expect(spoken).to.equal(part(el, 'error')!.textContent);
  });

  it('can be used with the keyboard alone, and moves focus to each new screen heading', async () => {
    const fake = await fakeScenario();
    const el = await mount(fake.endpoint, { methods: 'upi sbp' });
    const before = document.createElement('button');
    before.textContent = 'before';
    el.before(before);
    before.focus();
    await sendKeys({ press: 'Tab' });
    expect(el.shadowRoot!.activeElement!.textContent!.trim()).to.equal('UPI');
    await sendKeys({ press: 'Enter' });
    await untilScreen(el, 'pay');
    expect(el.shadowRoot!.activeElement!.getAttribute('part')).to.equal('heading');
    expect(el.shadowRoot!.activeElement!.textContent).to.equal('Pay by transfer');
    await sendKeys({ press: 'Tab' });
    expect(el.shadowRoot!.activeElement!.getAttribute('part')).to.equal('copy-button');
    before.remove();
  });

  it('keeps the keyboard in the element when "Check again" goes with its notice: focus moves to the heading', async () => {
    // The notice's button checks; when the check succeeds the notice goes, the button with it, on the same screen.
    const clock = new ManualClock();
    const fake = await fakeScenario({ noStream: true });
    const requests = watchRequests(fake.endpoint);
    try {
      const el = await mount(fake.endpoint, { method: 'upi', pollInterval: 3_600_000, clock });
      await el.start();
      await untilScreen(el, 'pay');
      await fake.configure({ failStatus: 1, failWith: 503 });
      await el.refresh();
      await el.updateComplete;
      part(el, 'check-button')!.focus();
      await sendKeys({ press: 'Enter' });
      await waitUntil(() => !part(el, 'notice'), 'the notice to go once the check succeeds', { timeout: 5000 });
      await el.updateComplete;
      expect(el.screen).to.equal('pay');
      expect(el.shadowRoot!.activeElement?.getAttribute('part'), 'where the focus is').to.equal('heading');
    } finally {
      requests.restore();
    }
  });

  it('does not move focus into the element when the shopper is elsewhere', async () => {
    const fake = await fakeScenario();
    const outside = document.createElement('input');
    outside.setAttribute('aria-label', 'outside');
    document.body.append(outside);
    outside.focus();
    const el = await mount(fake.endpoint, { method: 'upi', autostart: true });
    await untilScreen(el, 'pay');
    expect(document.activeElement).to.equal(outside);
    outside.remove();
  });

  it('stops the spinner for people who prefer reduced motion', async () => {
    const fake = await fakeScenario({ requisitesAfterMs: 3000 });
    const el = await mount(fake.endpoint, { method: 'upi' });
    void el.start();
    await untilScreen(el, 'preparing');
    const spinner = part(el, 'spinner')!;
    expect(getComputedStyle(spinner).animationName).to.equal('spin');
    await emulateMedia({ reducedMotion: 'reduce' });
    try {
      expect(getComputedStyle(spinner).animationName).to.equal('none');
    } finally {
      await emulateMedia({ reducedMotion: 'no-preference' });
    }
  });

  it('follows the dark color scheme', async () => {
    const fake = await fakeScenario();
    const el = await mount(fake.endpoint, { method: 'upi' });
    const base = part(el, 'base')!;
    const light = getComputedStyle(base).backgroundColor;
    await emulateMedia({ colorScheme: 'dark' });
    try {
      expect(getComputedStyle(base).backgroundColor).to.not.equal(light);
    } finally {
      await emulateMedia({ colorScheme: 'light' });
    }
  });
});
