import { expect } from '@open-wc/testing';
import { fakeScenario, mount, nextEvent, part, untilScreen } from './support/helpers.js';
import { ManualClock } from './support/manual-clock.js';
import { watchRequests } from './support/requests.js';

describe('transport errors', () => {
  it('retries a create whose answer was lost without creating a second payment', async () => {
    const fake = await fakeScenario({ loseCreateAnswers: 1 });
    const el = await mount(fake.endpoint, { method: 'upi' });
    const error = nextEvent(el, 'payin-error');
    part(el, 'pay-button')!.click();
    expect((await error).detail.retryable).to.equal(true);
    await untilScreen(el, 'error');
    expect(part(el, 'retry-button')!.textContent).to.contain('Try again');
    part(el, 'retry-button')!.click();
    await untilScreen(el, 'pay');
    const stats = await fake.stats();
    expect(stats.creates).to.equal(2);
    expect(stats.newPayments).to.equal(1);
  });

  it('maps a 502 to a retryable error and recovers on retry', async () => {
    const fake = await fakeScenario({ failCreates: 1, failWith: 502 });
    const el = await mount(fake.endpoint, { method: 'upi' });
    const error = nextEvent(el, 'payin-error');
    await el.start();
    expect((await error).detail).to.deep.include({ code: 'upstream_error', retryable: true });
    await el.refresh();
    await untilScreen(el, 'pay');
  });

  it('judges an error code the proxy never sends by its HTTP status, so a 503 stays retryable', async () => {
    const fake = await fakeScenario({ failCreates: 1, failWith: 503, failCode: 'gateway_overloaded' });
    const el = await mount(fake.endpoint, { method: 'upi' });
    const error = nextEvent(el, 'payin-error');
    await el.start();
    expect((await error).detail).to.deep.include({ code: 'internal', retryable: true });
    await el.refresh();
    await untilScreen(el, 'pay');
  });

  it("reads the proxy's store being down (503 unavailable) as the service's trouble, with Try again", async () => {
    const fake = await fakeScenario({ failCreates: 1, failWith: 503, failCode: 'unavailable', retryAfterSeconds: 5 });
    const el = await mount(fake.endpoint, { method: 'upi' });
    const error = nextEvent(el, 'payin-error');
    part(el, 'pay-button')!.click();
    expect((await error).detail).to.deep.include({ code: 'unavailable', retryable: true });
    await untilScreen(el, 'error');
    expect(part(el, 'error')!.textContent).to.contain('The payment service is not answering');
    expect(part(el, 'retry-button')!.textContent).to.contain('Try again');
    part(el, 'retry-button')!.click();
    await untilScreen(el, 'pay');
  });

  it('shows an order the proxy says is paid already as paid, with nothing to retry', async () => {
    const fake = await fakeScenario();
    const first = await mount(fake.endpoint, { method: 'upi', orderId: 'paid-order-1' });
    await first.start();
    await untilScreen(first, 'pay');
    await fake.set({ state: 'finished' });
    await untilScreen(first, 'paid');
    first.reset(); // a new tab of the same order would start from nothing
    const error = nextEvent(first, 'payin-error');
    await first.start();
    expect((await error).detail).to.deep.include({ code: 'order_paid', retryable: false });
    await untilScreen(first, 'paid');
    expect(part(first, 'screen')!.textContent).to.contain('already paid');
    expect(part(first, 'error')).to.equal(null);
    expect(part(first, 'retry-button')).to.equal(null);
  });

  it('shows the order as paid, not this payment, when another payment of the order paid it', async () => {
    // The shopper switched methods and paid the first one's QR: the proxy answers this payment's check with order_paid.
    const fake = await fakeScenario();
    const el = await mount(fake.endpoint, { method: 'upi', orderId: 'paid-elsewhere-1' });
    await el.start();
    await untilScreen(el, 'pay');
    await fake.configure({ failStatus: 1, failWith: 409, failCode: 'order_paid' });
    await el.refresh();
    await untilScreen(el, 'paid');
    expect(part(el, 'screen')!.textContent).to.contain('already paid');
    // This payment was not paid: no amount is said to have been.
    expect(part(el, 'paid-amount')).to.equal(null);
    expect(part(el, 'retry-button')).to.equal(null);
  });

  it('says so when it is set up without an order id', async () => {
    const fake = await fakeScenario();
    const el = await mount(fake.endpoint, { method: 'upi', orderId: '' });
    const error = nextEvent(el, 'payin-error');
    part(el, 'pay-button')!.click();
    expect((await error).detail.code).to.equal('misconfigured');
    await untilScreen(el, 'error');
    expect((await fake.stats()).creates).to.equal(0);
  });

  it("gives up on a create that gets no answer in 15 s of the element's clock, as a retryable timeout", async () => {
    const clock = new ManualClock();
    // The first create is answered only after 30 s of real time; the retry at once.
    const fake = await fakeScenario({ createDelayMs: [30_000] });
    const requests = watchRequests(fake.endpoint);
    try {
      const el = await mount(fake.endpoint, { method: 'upi', clock });
      const error = nextEvent(el, 'payin-error', 4000);
      void el.start();
      await untilScreen(el, 'loading');
      expect(requests.made('payments')).to.equal(1);
      await clock.advance(14_999);
      await el.updateComplete;
      expect(el.screen).to.equal('loading');
      await clock.advance(1);
      expect((await error).detail).to.deep.include({ code: 'timeout', retryable: true });
      await untilScreen(el, 'error');
      part(el, 'retry-button')!.click();
      await untilScreen(el, 'pay');
      expect((await fake.stats()).newPayments).to.equal(1);
    } finally {
      requests.restore();
    }
  });

  it('shows a failing connection while following, then recovers by itself', async () => {
    const clock = new ManualClock();
    const fake = await fakeScenario({ noStream: true });
    const requests = watchRequests(fake.endpoint);
    try {
      const el = await mount(fake.endpoint, { method: 'upi', pollInterval: 1000, clock });
      await el.start();
      await untilScreen(el, 'pay');
      await fake.configure({ failStatus: 2, failWith: 503 });
      const error = nextEvent(el, 'payin-error');
      await clock.until(() => requests.made('status') === 1, 'the first check');
      expect((await error).detail).to.deep.include({ code: 'upstream_error', retryable: true });
      await requests.answered();
      await el.updateComplete;
      expect(part(el, 'notice')!.textContent).to.contain('Connection lost');
      await fake.set({ state: 'finished' });
      // The retry after one failure comes within 2 s and fails again; the next, within 4 s, gets through.
      await clock.advance(2000);
      await requests.answered();
      expect(requests.made('status')).to.equal(2);
      await el.updateComplete;
      expect(part(el, 'notice')!.textContent).to.contain('Connection lost');
      await clock.advance(4000);
      await untilScreen(el, 'paid');
      expect(requests.made('status')).to.equal(3);
      expect(part(el, 'notice')).to.equal(null);
    } finally {
      requests.restore();
    }
  });
});
