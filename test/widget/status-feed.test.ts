import { expect, waitUntil } from '@open-wc/testing';
import { nextDelay, SAFETY_POLL_MS } from '../../src/widget/controllers/poll-delay.js';
import { StatusFeedController } from '../../src/widget/controllers/status-feed.js';
import { fakeScenario, mount, part, recordEvents, untilScreen } from './support/helpers.js';
import { ManualClock } from './support/manual-clock.js';
import { type RequestWatch, watchRequests } from './support/requests.js';

const host = () => ({ addController() {}, removeController() {}, requestUpdate() {}, updateComplete: Promise.resolve(true) });

/** Commands of the fake proxy that fakeScenario() does not name: `{release: true}`, `{dropStreams: true}`, `{orderPaid: true}`. */
async function command(endpoint: string, body: Record<string, unknown>): Promise<void> {
  const answer = await fetch(endpoint.replace(/payin$/, '__control'), {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  if (!answer.ok) throw new Error(`fake control answered ${answer.status}`);
}

describe('following the payment', () => {
  // The element runs on a manual clock: no check happens unless the test moves time, so each test says exactly
  // when one is due, and waits (bounded) only for the network's answers.
  let clock: ManualClock;
  let requests: RequestWatch;
  afterEach(() => requests?.restore());

  /** Moves the clock by `ms`, then waits until the checks this started are answered. */
  async function pass(ms: number): Promise<void> {
    await clock.advance(ms);
    await requests.answered();
  }

  /** Waits, without moving time, until the element has made `n` checks (a check "at once"), and their answers. */
  async function untilChecks(n: number, what: string): Promise<void> {
    await clock.until(() => requests.made('status') >= n, what);
    expect(requests.made('status')).to.equal(n);
    await requests.answered();
  }

  /** A checkout on a fresh manual clock, its requests watched, started and on its pay screen. */
  async function onPayScreen(scenario: Record<string, unknown> = {}, pollInterval?: number) {
    clock = new ManualClock();
    const fake = await fakeScenario(scenario);
    requests = watchRequests(fake.endpoint);
    const el = await mount(fake.endpoint, pollInterval === undefined ? { method: 'upi', clock } : { method: 'upi', pollInterval, clock });
    await el.start();
    await untilScreen(el, 'pay');
    return { fake, el };
  }

  it('prefers the event stream and then polls only as a slow safety net', async () => {
    const { fake, el } = await onPayScreen({}, 100);
    await fake.set({ state: 'in_check' });
    // The clock has not moved, so this news came over the stream, which has opened.
    await untilScreen(el, 'checking');
    expect(requests.made('status')).to.equal(0);
    // Not at the poll interval (100 ms) but at the safety interval, +-20 %.
    await pass(SAFETY_POLL_MS * 0.8 - 1);
    expect(requests.made('status')).to.equal(0);
    await pass(SAFETY_POLL_MS * 0.4 + 1);
    expect(requests.made('status')).to.equal(1);
    await pass(SAFETY_POLL_MS * 0.8 - 1);
    expect(requests.made('status')).to.equal(1);
    await fake.set({ state: 'finished' });
    await untilScreen(el, 'paid');
  });

  it('shows the order as paid when the stream says another payment of the order paid it, and follows no more', async () => {
    // The shopper switched methods and paid the first payment's QR from a phone, while this page shows the second.
    const { fake, el } = await onPayScreen();
    const log = recordEvents(el);
    await waitUntil(async () => (await fake.stats()).streams === 1, 'the stream to be open');
    await command(fake.endpoint, { orderPaid: true });
    await untilScreen(el, 'paid');
    // The clock has not moved: no status call brought it, only the stream.
    expect(requests.made('status')).to.equal(0);
    // As a status answer of 409 order_paid shows it: the order paid, no amount claimed for this payment, no payin-paid.
    expect(part(el, 'screen')!.textContent).to.contain('already paid');
    expect(part(el, 'paid-amount')).to.equal(null);
    expect(log.map((e) => e.name)).to.deep.equal(['payin-error']);
    expect(log[0]!.detail).to.deep.equal({ code: 'order_paid', message: 'fake paid by another', retryable: false });
    await pass(2 * SAFETY_POLL_MS);
    expect(requests.made('status')).to.equal(0);
    expect((await fake.stats()).streams).to.equal(1);
  });

  it('polls at the poll interval, with jitter, when the proxy refuses the stream', async () => {
    await onPayScreen({ noStream: true }, 2000);
    await untilChecks(1, 'the first check, at once');
    for (let i = 2; i <= 5; i++) {
      await pass(1600 - 1); // the interval less 20 %
      expect(requests.made('status')).to.equal(i - 1);
      await pass(800 + 1); // the interval plus 20 %
      expect(requests.made('status')).to.equal(i);
    }
  });

  it('polls, and reaches the paid screen, in a browser without EventSource or BroadcastChannel', async () => {
    // Some embedded webviews lack them, and a page may remove them: the element must still follow the payment.
    const saved = { EventSource: globalThis.EventSource, BroadcastChannel: globalThis.BroadcastChannel };
    const globals = globalThis as unknown as Record<string, unknown>;
    delete globals.EventSource;
    delete globals.BroadcastChannel;
    try {
      const { fake, el } = await onPayScreen({}, 2000);
      await untilChecks(1, 'the first check, at once');
      await fake.set({ state: 'finished' });
      await pass(2400 + 1); // the interval plus 20 %
      await untilScreen(el, 'paid');
      expect(requests.made('status')).to.equal(2);
    } finally {
      Object.assign(globalThis, saved);
    }
  });

  it('carries on by polling at the poll interval when the stream drops', async () => {
    const { fake, el } = await onPayScreen({}, 2000);
    await fake.set({ state: 'in_check' });
    await untilScreen(el, 'checking'); // over the stream: it is open
    await command(fake.endpoint, { dropStreams: true });
    await fake.set({ state: 'finished' }); // no stream carries this any more
    // The element checks at once when its stream fails (something may have happened meanwhile).
    await untilChecks(1, 'a check when the stream dropped');
    await untilScreen(el, 'paid');
  });

  it('checks every poll interval after a dropped stream, not at the safety interval', async () => {
    const { fake, el } = await onPayScreen({}, 2000);
    await fake.set({ state: 'in_check' });
    await untilScreen(el, 'checking');
    await command(fake.endpoint, { dropStreams: true });
    await untilChecks(1, 'a check when the stream dropped');
    await fake.set({ state: 'finished' });
    await pass(2400 + 1);
    expect(requests.made('status')).to.equal(2);
    await untilScreen(el, 'paid');
  });

  it('backs off exponentially while checks fail, then polls at the interval again', async () => {
    const { fake, el } = await onPayScreen({ noStream: true }, 1000);
    await fake.configure({ failStatus: 4, failWith: 500 });
    await untilChecks(1, 'the first check, at once');
    // After failure n the wait is 1000 ms * 2^n with full jitter: between half of it and all of it.
    for (const ceiling of [2000, 4000, 8000, 16_000]) {
      const made = requests.made('status');
      await pass(ceiling / 2 - 1);
      expect(requests.made('status'), `no check before ${ceiling / 2} ms`).to.equal(made);
      await pass(ceiling / 2 + 1);
      expect(requests.made('status'), `a check by ${ceiling} ms`).to.equal(made + 1);
    }
    expect(el.screen).to.equal('pay');
    // The fifth check succeeded: back to the poll interval (+-20 %).
    await pass(1200 + 1);
    expect(requests.made('status')).to.equal(6);
  });

  it('ignores an answer that is older than one already shown', async () => {
    clock = new ManualClock();
    const fake = await fakeScenario({ noStream: true });
    const el = await mount(fake.endpoint, { method: 'upi', clock });
    await el.start();
    await untilScreen(el, 'pay');
    await fake.configure({ holdStatus: 1 });
    const slow = el.refresh(); // its answer is taken now (pending) and held back
    await waitUntil(async () => (await fake.stats()).status === 1, 'the held check to reach the proxy', { timeout: 5000 });
    await fake.set({ state: 'in_check' });
    await el.refresh();
    await untilScreen(el, 'checking');
    await command(fake.endpoint, { release: true });
    await slow;
    await el.updateComplete;
    expect(el.screen).to.equal('checking');
    expect(el.payment!.state).to.equal('in_check');
  });

  it('checks at once when the shopper comes back to the tab or back online', async () => {
    await onPayScreen({ noStream: true });
    expect(requests.made('status')).to.equal(0);
    document.dispatchEvent(new Event('visibilitychange'));
    expect(requests.made('status')).to.equal(1);
    await requests.answered();
    window.dispatchEvent(new Event('online'));
    expect(requests.made('status')).to.equal(2);
    await requests.answered();
  });

  it('stops following at its deadline and says so', async () => {
    clock = new ManualClock();
    const fake = await fakeScenario({ noStream: true });
    requests = watchRequests(fake.endpoint);
    const create = await fetch(`${fake.endpoint}/payments`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ orderId: 'deadline', method: 'upi' }),
    });
    const { payment, token } = await create.json();
    let deadline = 0;
    let seen = 0;
    const feed = new StatusFeedController(host(), {
      onPayment: () => seen++,
      onTrouble: () => {},
      onDeadline: () => deadline++,
      onOnline: () => {},
      pollInterval: () => 250,
      clock,
    });
    feed.setTarget(fake.endpoint, { paymentId: payment.id, token });
    feed.follow(clock.now() + 1000);
    // Checks every 200-300 ms until the deadline; one step of 300 ms makes at most one.
    for (let i = 0; i < 10 && deadline === 0; i++) await pass(300);
    expect(deadline).to.equal(1);
    const made = requests.made('status');
    expect(made).to.be.within(4, 7);
    expect(seen).to.equal(made);
    await pass(60_000);
    expect(requests.made('status')).to.equal(made);
    expect(clock.pending).to.equal(0);
    feed.stop();
  });
});

describe('nextDelay', () => {
  const base = { interval: 3000, failures: 0, hidden: false, streamOpen: false };

  it('jitters the poll interval by +-20 %', () => {
    expect(nextDelay({ ...base, random: () => 0 })).to.equal(2400);
    expect(nextDelay({ ...base, random: () => 0.999999 })).to.equal(3600);
  });

  it('polls slowly beside an open stream, and slower in a hidden tab', () => {
    expect(nextDelay({ ...base, streamOpen: true, random: () => 0.5 })).to.equal(SAFETY_POLL_MS);
    expect(nextDelay({ ...base, hidden: true, random: () => 0.5 })).to.equal(15_000);
    expect(nextDelay({ ...base, hidden: true, streamOpen: true, random: () => 0.5 })).to.equal(60_000);
  });

  it('backs off exponentially with a cap, never before Retry-After', () => {
    expect(nextDelay({ ...base, failures: 1, random: () => 0 })).to.equal(3000);
    expect(nextDelay({ ...base, failures: 2, random: () => 0.999999 })).to.be.closeTo(12_000, 1);
    expect(nextDelay({ ...base, failures: 9, random: () => 0.999999 })).to.be.closeTo(30_000, 1);
    expect(nextDelay({ ...base, failures: 1, retryAfterMs: 20_000, random: () => 0 })).to.equal(20_000);
  });
});
