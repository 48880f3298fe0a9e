import { expect, fixture, html, waitUntil } from '@open-wc/testing';
import type { PayinCheckout } from '../../src/widget/index.js';
import { fakeScenario, mount, recordEvents, sleep, uid, untilScreen } from './support/helpers.js';

describe('several checkouts of one payment', () => {
  it('follow it once between them, share its states, and announce the end once per page', async () => {
    const fake = await fakeScenario({ noStream: true });
    const orderId = uid('order');
    const first = await mount(fake.endpoint, { orderId, method: 'upi', pollInterval: 100 });
    await first.start();
    await untilScreen(first, 'pay');
    // A second checkout of the same order (another tab of the same shopper, here another element): it resumes.
    const second = await mount(fake.endpoint, { orderId, method: 'upi', pollInterval: 100 });
    await untilScreen(second, 'pay');
    expect(second.payment!.id).to.equal(first.payment!.id);
    const logs = [recordEvents(first), recordEvents(second)];
    const before = (await fake.stats()).status;
    await sleep(1500);
    const polls = (await fake.stats()).status - before;
    // One follower polls at most 1500 / 200 (the 250 ms floor less its jitter) = 7 times; two would make ~12.
    expect(polls).to.be.within(1, 7);
    await fake.set({ state: 'finished' });
    await untilScreen(first, 'paid');
    await untilScreen(second, 'paid');
    expect(logs.flat().filter((e) => e.name === 'payin-paid')).to.have.length(1);
    expect((await fake.stats()).creates).to.equal(1);
  });

  it('hands the following over when the leading checkout goes away', async () => {
    const fake = await fakeScenario({ noStream: true });
    const orderId = uid('order');
    const wrapper = await fixture<HTMLDivElement>(html`<div></div>`);
    const make = () => {
      const el = document.createElement('payin-checkout') as PayinCheckout;
      Object.assign(el, { endpoint: fake.endpoint, orderId, method: 'upi', pollInterval: 100 });
      wrapper.append(el);
      return el;
    };
    const leader = make();
    await leader.start();
    await untilScreen(leader, 'pay');
    const follower = make();
    await untilScreen(follower, 'pay');
    leader.remove();
    await sleep(300);
    const before = (await fake.stats()).status;
    await sleep(1200);
    expect((await fake.stats()).status - before).to.be.at.least(3);
    await fake.set({ state: 'finished' });
    await untilScreen(follower, 'paid');
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
