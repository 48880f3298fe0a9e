import { expect, waitUntil } from '@open-wc/testing';
import { FOLLOW_GRACE_MS } from '../../src/widget/controllers/payment-flow.js';
import { fakeScenario, mount, part, parts, recordEvents, text, untilScreen } from './support/helpers.js';
import { ManualClock } from './support/manual-clock.js';
import { type RequestWatch, watchRequests } from './support/requests.js';

const clockOf = (el: Element) => el.shadowRoot!.querySelector('[role="timer"]')?.textContent?.trim() ?? '';
const minutes = (clock: string) => {
  const [m, s] = clock.split(':').map(Number);
  return m! + s! / 60;
};
const seconds = (clock: string) => clock.split(':').reduce((a, b) => a * 60 + Number(b), 0);
const spokenOf = (el: Element) => el.shadowRoot!.querySelector('[role="status"]')!.textContent!.trim();

/** The requests of the test that runs, put back after it. */
let requests: RequestWatch | undefined;

/**
 * Moves the clock by `ms` in steps of 10 s, letting in the answers of the checks each step starts: a request has
 * 15 s of the element's clock, so one long leap would time out a check that the network has not answered yet.
 */
async function passAnswered(clock: ManualClock, watch: RequestWatch, ms: number): Promise<void> {
  for (let left = ms; left > 0; left -= 10_000) {
    await clock.advance(Math.min(10_000, left));
    await watch.answered();
  }
}

/** A one-minute payment on a manual clock, followed by polling only, after its first status check. */
async function payingOnAClock(options: Record<string, unknown> = {}) {
  const clock = new ManualClock();
  const fake = await fakeScenario({ ttlMs: 60_000, noStream: true, ...options });
  requests = watchRequests(fake.endpoint);
  const watch = requests;
  const el = await mount(fake.endpoint, { method: 'upi', pollInterval: 100_000, clock });
  const events = recordEvents(el);
  await el.start();
  await untilScreen(el, 'pay');
  await clock.until(() => watch.made('status') === 1, 'the first check');
  await watch.answered();
  return { clock, fake, watch, el, events };
}

describe('the countdown', () => {
  afterEach(() => {
    requests?.restore();
    requests = undefined;
  });

  it('counts to the real expiry when the client clock is three hours fast', async () => {
    const fake = await fakeScenario({ clockSkewMs: -3 * 3600_000, ttlMs: 10 * 60_000 });
    const el = await mount(fake.endpoint, { method: 'upi' });
    await el.start();
    await untilScreen(el, 'pay');
    expect(minutes(clockOf(el))).to.be.within(9.9, 10);
  });

  it('counts to the real expiry when the client clock is an hour slow', async () => {
    const fake = await fakeScenario({ clockSkewMs: 3600_000, ttlMs: 10 * 60_000 });
    const el = await mount(fake.endpoint, { method: 'upi' });
    await el.start();
    await untilScreen(el, 'pay');
    expect(minutes(clockOf(el))).to.be.within(9.9, 10);
    expect(part(el, 'countdown')!.querySelector('[role="timer"]')).to.exist;
  });

  it('ticks every second but speaks only while the clock shows a threshold', async () => {
    const clock = new ManualClock();
    const fake = await fakeScenario({ ttlMs: 5 * 60_000 + 1500, noStream: true });
    requests = watchRequests(fake.endpoint);
    // No poll is due for the whole test: each answer corrects the countdown to the service's clock.
    const el = await mount(fake.endpoint, { method: 'upi', pollInterval: 3_600_000, clock });
    await el.start();
    await untilScreen(el, 'pay');
    await clock.until(() => requests!.made('status') === 1, 'the first check');
    await requests.answered();
    const shown: { left: number; spoken: string }[] = [];
    for (let i = 0; i < 5; i++) {
      if (i) await clock.advance(1000);
      await el.updateComplete;
      shown.push({ left: seconds(clockOf(el)), spoken: spokenOf(el) });
    }
    const first = shown[0]!.left;
    expect(first).to.be.within(300, 302);
    expect(shown).to.deep.equal(shown.map((_, i) => ({ left: first - i, spoken: first - i === 300 ? '5 minutes left' : '' })));
    await clock.advance((first - 4 - 120) * 1000);
    await el.updateComplete;
    expect(clockOf(el)).to.equal('2:00');
    expect(spokenOf(el)).to.equal('2 minutes left');
    expect(requests.made('status')).to.equal(1);
  });

  it('never says a time left that has passed: not once "Copied" is said, nor once the connection is back', async () => {
    const clock = new ManualClock();
    const fake = await fakeScenario({ ttlMs: 31_500, noStream: true, autoExpire: false });
    requests = watchRequests(fake.endpoint);
    const watch = requests;
    const el = await mount(fake.endpoint, { method: 'upi', pollInterval: 3_600_000, clock });
    await el.start();
    await untilScreen(el, 'pay');
    await clock.until(() => watch.made('status') === 1, 'the first check');
    await watch.answered();
    await clock.advance(2000);
    await el.updateComplete;
    expect(spokenOf(el)).to.equal('30 seconds left');

    await clock.advance(5000);
    const original = navigator.clipboard.writeText;
    Object.defineProperty(navigator.clipboard, 'writeText', { configurable: true, value: async () => undefined });
    try {
      part(el, 'copy-button')!.click();
      await waitUntil(() => spokenOf(el) === 'Copied', 'the live region to say Copied', { timeout: 2000 });
    } finally {
      Object.defineProperty(navigator.clipboard, 'writeText', { configurable: true, value: original });
    }
    await clock.advance(2000);
    await el.updateComplete;
    expect(clockOf(el)).to.equal('0:23');
    expect(spokenOf(el), 'after "Copied", with 23 s left').to.equal('');

    await fake.configure({ failStatus: 1, failWith: 503 });
    await el.refresh();
    await el.updateComplete;
    expect(spokenOf(el)).to.equal('Connection lost. Retrying…');
    await el.refresh();
    await el.updateComplete;
    expect(part(el, 'notice')).to.equal(null);
    expect(spokenOf(el), 'once the connection is back').to.equal('');
  });

  it('after the expiry shows a late screen, keeps checking through the grace window, then says expired', async () => {
    const { clock, fake, watch, el, events } = await payingOnAClock();
    // The service's clock moves with the page's, step by step, so that it expires the payment when its own time
    // is up. (Moved a whole pass ahead at once, an answer early in a pass told the element it was up to 120 s
    // later than its own clock said, which shortened the grace window: the late screen ended too soon now and then.)
    let serviceAhead = 0;
    const pass = async (ms: number) => {
      for (let left = ms; left > 0; left -= 10_000) {
        const step = Math.min(10_000, left);
        serviceAhead += step;
        await fake.configure({ clockSkewMs: serviceAhead });
        await passAnswered(clock, watch, step);
      }
    };
    await pass(55_000);
    expect(el.screen).to.equal('pay');
    expect(watch.made('status')).to.equal(1);

    await pass(5_000);
    expect(watch.made('status'), 'a check at zero').to.equal(2);
    await untilScreen(el, 'late');
    expect(part(el, 'heading')!.textContent).to.equal('Time is up');
    expect(part(el, 'late-notice')!.textContent).to.contain('do not pay again');
    expect(spokenOf(el)).to.equal('Time is up');
    for (const gone of ['countdown', 'qr', 'requisites', 'copy-button', 'app-link']) expect(parts(el, gone), gone).to.have.length(0);
    expect(el.payment!.state).to.equal('expired'); // the service says so, but a late payment may still arrive

    // Checks go on at the poll interval (80-120 s) while the grace window lasts, and the screen stays. An answer
    // comes in at the end of a 10 s step, so the next check may fall 80 s on from anywhere in it: two in one
    // 120 s stretch can happen, none cannot.
    for (let i = 3; i <= 4; i++) {
      await pass(120_000);
      expect(watch.made('status')).to.be.within(i, i + 1);
      expect(el.screen).to.equal('late');
    }
    expect(events.filter((e) => e.name === 'payin-expired')).to.have.length(0);

    await pass(FOLLOW_GRACE_MS - 240_000);
    await untilScreen(el, 'expired');
    expect(text(el)).to.contain('Start again');
    expect(events.filter((e) => e.name === 'payin-expired')).to.have.length(1);
  });

  /**
   * A payment whose payer said they paid (in_check), which the service decides long after the expiry and the grace
   * window: following has stopped, and the notice says so with "Check again". `pass` moves the service's clock with
   * the page's, as in the test above.
   */
  async function checkingPastTheGraceWindow() {
    const paying = await payingOnAClock({ autoExpire: false });
    const { clock, fake, watch, el } = paying;
    let serviceAhead = 0;
    const pass = async (ms: number) => {
      for (let left = ms; left > 0; left -= 10_000) {
        const step = Math.min(10_000, left);
        serviceAhead += step;
        await fake.configure({ autoExpire: false, clockSkewMs: serviceAhead });
        await passAnswered(clock, watch, step);
      }
    };
    await fake.set({ state: 'in_check' });
    await pass(60_000 + FOLLOW_GRACE_MS + 10_000);
    await untilScreen(el, 'checking');
    await waitUntil(() => part(el, 'check-button'), 'the notice that nothing is checked any more');
    return { ...paying, pass };
  }

  it('follows again after "Check again" once following has stopped, and sees the decision when it comes', async () => {
    const { clock, fake, watch, el, pass } = await checkingPastTheGraceWindow();
    const made = watch.made('status');
    part(el, 'check-button')!.click();
    await clock.until(() => watch.made('status') > made, 'the check the button asked for');
    await watch.answered();
    expect(el.screen).to.equal('checking');

    await fake.set({ state: 'finished' });
    await pass(120_000);
    await untilScreen(el, 'paid');
  });

  it('keeps "Check again" when the check on coming back to the tab finds the payment still being checked', async () => {
    const { clock, watch, el } = await checkingPastTheGraceWindow();
    const made = watch.made('status');
    document.dispatchEvent(new Event('visibilitychange')); // back from the bank app
    await clock.until(() => watch.made('status') > made, 'the check on coming back');
    await watch.answered();
    await el.updateComplete;
    expect(el.screen).to.equal('checking');
    expect(part(el, 'check-button'), 'nothing follows the payment now: the shopper can still check').to.not.equal(null);
  });

  it('shows a payment confirmed during the grace window as paid', async () => {
    const { clock, fake, watch, el, events } = await payingOnAClock({ autoExpire: false });
    await clock.advance(60_000);
    await untilScreen(el, 'late');
    await watch.answered();
    await fake.set({ state: 'finished' });
    await passAnswered(clock, watch, 120_000);
    await untilScreen(el, 'paid');
    expect(events.map((e) => e.name).filter((n) => n !== 'payin-state')).to.deep.equal(['payin-created', 'payin-paid']);
  });
});
