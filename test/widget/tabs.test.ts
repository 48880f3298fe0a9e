import { expect, fixture, html, waitUntil } from '@open-wc/testing';
import type { PayinCheckout } from '../../src/widget/index.js';
import { fakeScenario, mount, recordEvents, uid, untilScreen } from './support/helpers.js';
import { ManualClock } from './support/manual-clock.js';
import { type RequestWatch, watchRequests } from './support/requests.js';

describe('several checkouts of one payment', () => {
  // On one manual clock: polls happen only when the test moves time, so one follower makes exactly one check per
  // step of the poll interval and two would make two.
  let requests: RequestWatch | undefined;
  afterEach(() => requests?.restore());

  it('follow it once between them, share its states, and announce the end once per page', async () => {
    const clock = new ManualClock();
    const fake = await fakeScenario({ noStream: true });
    const watch = (requests = watchRequests(fake.endpoint));
    const orderId = uid('order');
    const first = await mount(fake.endpoint, { orderId, method: 'upi', pollInterval: 250, clock });
    await first.start();
    await untilScreen(first, 'pay');
    // A second checkout of the same order (another tab of the same shopper, here another element): it resumes.
    const second = await mount(fake.endpoint, { orderId, method: 'upi', pollInterval: 250, clock });
    await untilScreen(second, 'pay');
    expect(second.payment!.id).to.equal(first.payment!.id);
    const logs = [recordEvents(first), recordEvents(second)];
    const resumed = watch.made('status'); // the second checkout's resume
    await clock.until(() => watch.made('status') > resumed, "the leader's first check");
    await watch.answered();
    // Each check is due 200-300 ms after the last answer: one step of 300 ms is one check per follower.
    for (let step = 1; step <= 5; step++) {
      await clock.advance(300);
      await watch.answered();
      expect(watch.made('status') - resumed, `checks after step ${step}`).to.equal(1 + step);
    }
    await fake.set({ state: 'finished' });
    await clock.advance(300);
    await untilScreen(first, 'paid');
    await untilScreen(second, 'paid');
    expect(logs.flat().filter((e) => e.name === 'payin-paid')).to.have.length(1);
    expect((await fake.stats()).creates).to.equal(1);
  });

  it('hands the following over when the leading checkout goes away', async () => {
    const clock = new ManualClock();
    const fake = await fakeScenario({ noStream: true });
    const watch = (requests = watchRequests(fake.endpoint));
    const orderId = uid('order');
    const wrapper = await fixture<HTMLDivElement>(html`<div></div>`);
    const make = () => {
      const el = document.createElement('payin-checkout') as PayinCheckout;
      Object.assign(el, { endpoint: fake.endpoint, orderId, method: 'upi', pollInterval: 250, clock });
      wrapper.append(el);
      return el;
    };
    const leader = make();
    await leader.start();
    await untilScreen(leader, 'pay');
    const follower = make();
    await untilScreen(follower, 'pay');
    await clock.until(() => watch.made('status') > 1, "the leader's first check");
    await watch.answered();
    leader.remove();
    // The follower takes the lead (the lock passes to it) and checks at once, then at its poll interval.
    const before = watch.made('status');
    await clock.until(() => watch.made('status') > before, "the new leader's first check");
    await watch.answered();
    for (let step = 1; step <= 3; step++) {
      await clock.advance(300);
      await watch.answered();
      expect(watch.made('status') - before, `checks after step ${step}`).to.equal(1 + step);
    }
    await fake.set({ state: 'finished' });
    await clock.advance(300);
    await untilScreen(follower, 'paid');
  });

  it('hand the following over when the leading one hears that another payment paid the order', async () => {
    // Two tabs of one payment (a duplicated tab); the shopper paid the order with another method elsewhere. The
    // leading tab hears it on its stream and shows the order paid: the other must not go on offering the payment.
    const clock = new ManualClock();
    const fake = await fakeScenario();
    const orderId = uid('order');
    const leader = await mount(fake.endpoint, { orderId, method: 'upi', clock });
    await leader.start();
    await untilScreen(leader, 'pay');
    const other = await mount(fake.endpoint, { orderId, method: 'upi', clock });
    await untilScreen(other, 'pay');
    await waitUntil(async () => (await fake.stats()).streams === 1, "the leader's stream");
    await fake.orderPaid();
    await untilScreen(leader, 'paid');
    // No time passes: the other learns it by taking the lead (its stream says so on opening), not at its
    // countdown's end.
    await clock.until(() => other.screen === 'paid', 'the other checkout to show the order paid');
    expect((await fake.stats()).creates).to.equal(1);
  });

  it('keeps following when a framework moves the element', async () => {
    const fake = await fakeScenario({ noStream: true });
    const el = await mount(fake.endpoint, { method: 'upi', pollInterval: 100 });
    await el.start();
    await untilScreen(el, 'pay');
    const elsewhere = document.createElement('section');
    document.body.append(elsewhere);
    elsewhere.append(el);
    await fake.set({ state: 'finished' });
    await waitUntil(() => el.screen === 'paid', 'paid after the move', { timeout: 5000 });
    elsewhere.remove();
  });
});
