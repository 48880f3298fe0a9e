import { expect, waitUntil } from '@open-wc/testing';
import { nextDelay, SAFETY_POLL_MS } from '../../src/widget/controllers/poll-delay.js';
import { StatusFeedController } from '../../src/widget/controllers/status-feed.js';
import { systemClock } from '../../src/widget/clock.js';
import { fakeScenario, mount, sleep, untilScreen } from './support/helpers.js';

const host = () => ({ addController() {}, removeController() {}, requestUpdate() {}, updateComplete: Promise.resolve(true) });

describe('following the payment', () => {
  it('prefers the event stream and then polls only as a slow safety net', async () => {
    const fake = await fakeScenario();
    const el = await mount(fake.endpoint, { method: 'upi', pollInterval: 100 });
    await el.start();
    await untilScreen(el, 'pay');
    await waitUntil(async () => (await fake.stats()).streams === 1, 'the stream to open', { timeout: 5000 });
    const before = (await fake.stats()).status;
    await sleep(1200);
    expect((await fake.stats()).status - before).to.be.at.most(1);
    await fake.set({ state: 'finished' });
    await untilScreen(el, 'paid', 3000);
  });

  it('polls at the poll interval when the proxy refuses the stream', async () => {
    const fake = await fakeScenario({ noStream: true });
    const el = await mount(fake.endpoint, { method: 'upi', pollInterval: 200 });
    await el.start();
    await untilScreen(el, 'pay');
    const before = (await fake.stats()).status;
    await sleep(2000);
    const polls = (await fake.stats()).status - before;
    // About 8 at 250 ms (the interval's floor); a busy machine makes fewer, never more than 2000 / 200 allows.
    expect(polls).to.be.within(3, 10);
  });

  it('carries on by polling when the stream drops', async () => {
    const fake = await fakeScenario({ dropStreamAfterMs: 400 });
    const el = await mount(fake.endpoint, { method: 'upi', pollInterval: 200 });
    await el.start();
    await untilScreen(el, 'pay');
    await sleep(800);
    await fake.set({ state: 'finished' });
    await untilScreen(el, 'paid', 4000);
  });

  it('backs off, with jitter, while checks fail', async () => {
    const fake = await fakeScenario({ noStream: true });
    const el = await mount(fake.endpoint, { method: 'upi', pollInterval: 100 });
    await el.start();
    await untilScreen(el, 'pay');
    const from = (await fake.stats()).statusTimes.length;
    await fake.configure({ failStatus: 4, failWith: 500 });
    await waitUntil(async () => (await fake.stats()).statusTimes.length >= from + 6, 'six more checks', { timeout: 15_000 });
    const times = (await fake.stats()).statusTimes.slice(from);
    const gaps = times.slice(1).map((t, i) => t - times[i]!);
    // The floor makes a plain poll 200-300 ms apart, and failure n waits 250 ms * 2^n jittered to [50 %, 100 %].
    // A check already on its way when the failures began shifts the sequence by one, so the test reads the
    // spread rather than positions: the longest gap (after three or four failures, at least 1000 ms when sent)
    // is well above the shortest. No upper limits: a busy machine only makes gaps longer. The exact delays are
    // checked without waiting in the nextDelay tests below.
    const longest = Math.max(...gaps);
    const shortest = Math.min(...gaps);
    expect(longest).to.be.at.least(750);
    expect(longest).to.be.greaterThan(shortest * 1.8);
  });

  it('ignores an answer that is older than one already shown', async () => {
    const fake = await fakeScenario({ noStream: true });
    const el = await mount(fake.endpoint, { method: 'upi', pollInterval: 60_000 });
    await el.start();
    await untilScreen(el, 'pay');
    await fake.configure({ statusDelayMs: [1200, 0] });
    const slow = el.refresh(); // answered late, with the state as it is now: pending
    await sleep(200);
    await fake.set({ state: 'in_check' });
    await el.refresh();
    await untilScreen(el, 'checking');
    await slow;
    await sleep(100);
    expect(el.screen).to.equal('checking');
    expect(el.payment!.state).to.equal('in_check');
  });

  it('checks at once when the shopper comes back to the tab or back online', async () => {
    const fake = await fakeScenario({ noStream: true });
    const el = await mount(fake.endpoint, { method: 'upi', pollInterval: 60_000 });
    await el.start();
    await untilScreen(el, 'pay');
    await sleep(100);
    const before = (await fake.stats()).status;
    document.dispatchEvent(new Event('visibilitychange'));
    await waitUntil(async () => (await fake.stats()).status === before + 1, 'a check on visibility', { timeout: 2000 });
    window.dispatchEvent(new Event('online'));
    await waitUntil(async () => (await fake.stats()).status === before + 2, 'a check when back online', { timeout: 2000 });
  });

  it('stops following at its deadline and says so', async () => {
    const fake = await fakeScenario({ noStream: true });
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
      onFatal: () => {},
      onDeadline: () => deadline++,
      pollInterval: () => 100,
      clock: systemClock,
    });
    feed.setTarget({ endpoint: fake.endpoint, paymentId: payment.id, token });
    feed.follow(Date.now() + 500);
    await waitUntil(() => deadline === 1, 'the deadline', { timeout: 3000 });
    const calls = (await fake.stats()).status;
    await sleep(400);
    expect((await fake.stats()).status).to.equal(calls);
    expect(seen).to.be.at.least(2);
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
