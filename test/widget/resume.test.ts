import { expect, waitUntil } from '@open-wc/testing';
import { fakeScenario, openFrame, uid } from './support/helpers.js';

describe('after a reload', () => {
  it('shows the same payment with the same countdown, without creating another', async () => {
    const fake = await fakeScenario({ noStream: true });
    const page = await openFrame({
      endpoint: fake.endpoint,
      'order-id': uid('order'),
      method: 'upi',
      autostart: '',
      'poll-interval': '500',
    });
    try {
      await waitUntil(() => page.el().screen === 'pay', 'the pay screen', { timeout: 8000 });
      const id = page.el().payment!.id;
      const left = page.el().shadowRoot!.querySelector('[role="timer"]')!.textContent;
      await page.reload();
      await waitUntil(() => page.el().screen === 'pay', 'the pay screen after the reload', { timeout: 8000 });
      expect(page.el().payment!.id).to.equal(id);
      const after = page.el().shadowRoot!.querySelector('[role="timer"]')!.textContent!;
      const seconds = (t: string) => t.split(':').reduce((a, b) => a * 60 + Number(b), 0);
      // The same countdown carries on (a restarted one would read more than before the reload).
      expect(seconds(left!) - seconds(after)).to.be.within(0, 30);
      const created = page.events().filter((e) => e.name === 'payin-created');
      expect(created).to.have.length(1);
      expect(created[0]!.detail.resumed).to.equal(true);
      expect((await fake.stats()).creates).to.equal(1);
    } finally {
      page.remove();
    }
  });

  it('fires the final event of a payment found final once per page, as resumed', async () => {
    const fake = await fakeScenario();
    const page = await openFrame({ endpoint: fake.endpoint, 'order-id': uid('order'), method: 'upi', autostart: '' });
    try {
      await waitUntil(() => page.el().screen === 'pay', 'the pay screen', { timeout: 8000 });
      await fake.set({ state: 'finished' });
      await waitUntil(() => page.el().screen === 'paid', 'the paid screen', { timeout: 8000 });
      const live = page.events().filter((e) => e.name === 'payin-paid');
      expect(live.map((e) => e.detail.resumed)).to.deep.equal([false]);
      await page.reload();
      await waitUntil(() => page.el().screen === 'paid', 'the paid screen after the reload', { timeout: 8000 });
      // The event fires as the answer is applied, before the screen shows it.
      const again = page.events().filter((e) => e.name === 'payin-paid');
      expect(again.map((e) => e.detail.resumed)).to.deep.equal([true]);
      await page.el().refresh();
      await page.el().updateComplete;
      expect(page.events().filter((e) => e.name === 'payin-paid')).to.have.length(1);
      expect((await fake.stats()).creates).to.equal(1);
    } finally {
      page.remove();
    }
  });

  it('forgets a payment the proxy no longer knows and starts over', async () => {
    const fake = await fakeScenario();
    const orderId = uid('order');
    sessionStorage.setItem(
      `payin-checkout:${new URL(fake.endpoint, location.href).href}|${orderId}`,
      JSON.stringify({ paymentId: 'gone', token: 'x', method: 'upi' }),
    );
    const page = await openFrame({ endpoint: fake.endpoint, 'order-id': orderId, method: 'upi' });
    try {
      await waitUntil(() => page.el().screen === 'error', 'the error screen', { timeout: 8000 });
      expect(page.events().at(-1)!.detail.code).to.equal('not_found');
      page.el().shadowRoot!.querySelector<HTMLButtonElement>('[part~="retry-button"]')!.click();
      await waitUntil(() => page.el().screen === 'pay', 'a new payment', { timeout: 8000 });
      expect((await fake.stats()).newPayments).to.equal(1);
    } finally {
      page.remove();
    }
  });
});
