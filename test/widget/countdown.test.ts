import { expect, waitUntil } from '@open-wc/testing';
import { crossedThreshold } from '../../src/widget/controllers/countdown.js';
import { fakeScenario, mount, part, sleep, untilScreen } from './support/helpers.js';

const clockOf = (el: Element) => el.shadowRoot!.querySelector('[role="timer"]')?.textContent?.trim() ?? '';
const minutes = (clock: string) => {
  const [m, s] = clock.split(':').map(Number);
  return m! + s! / 60;
};

describe('the countdown', () => {
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

  it('ticks every second but speaks only at the thresholds', async () => {
    const fake = await fakeScenario({ ttlMs: 5 * 60_000 + 1500 });
    const el = await mount(fake.endpoint, { method: 'upi' });
    await el.start();
    await untilScreen(el, 'pay');
    const live = el.shadowRoot!.querySelector('[role="status"]')!;
    const spoken = new Set<string>();
    const clocks = new Set<string>();
    for (let i = 0; i < 14; i++) {
      spoken.add(live.textContent!.trim());
      clocks.add(clockOf(el));
      await sleep(250);
    }
    expect(clocks.size).to.be.at.least(3);
    expect([...spoken]).to.deep.equal(['', '5 minutes left']);
  });

  it('asks for the status at zero instead of declaring the payment expired', async () => {
    const fake = await fakeScenario({ ttlMs: 1500, autoExpire: false, noStream: true });
    const el = await mount(fake.endpoint, { method: 'upi', pollInterval: 60_000 });
    await el.start();
    await untilScreen(el, 'pay');
    await sleep(100);
    const before = (await fake.stats()).status;
    await waitUntil(() => part(el, 'countdown')?.textContent?.includes('Time is up'), 'time up', { timeout: 4000 });
    await waitUntil(async () => (await fake.stats()).status === before + 1, 'a status check at zero', { timeout: 2000 });
    expect(el.screen).to.equal('pay');
    await fake.set({ state: 'expired' });
    await el.refresh();
    await untilScreen(el, 'expired');
  });

  it('names the smallest threshold crossed', () => {
    expect(crossedThreshold(301_000, 299_000)).to.equal(300);
    expect(crossedThreshold(299_000, 298_000)).to.equal(undefined);
    expect(crossedThreshold(200_000, 50_000)).to.equal(60);
    expect(crossedThreshold(31_000, 30_000)).to.equal(30);
  });
});
