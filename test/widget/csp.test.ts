import { expect, waitUntil } from '@open-wc/testing';
import { fakeScenario, openFrame, uid } from './support/helpers.js';

describe('under a strict Content Security Policy', () => {
  it('renders every part of the pay screen with no violation and no inline style', async () => {
    const fake = await fakeScenario();
    const page = await openFrame({ endpoint: fake.endpoint, 'order-id': uid('order'), method: 'upi', autostart: '' }, true);
    try {
      const policy = await fetch(page.frame.src).then((r) => r.headers.get('content-security-policy'));
      expect(policy).to.contain("style-src 'self'").and.contain("script-src 'self'");
      await waitUntil(() => page.el().screen === 'pay', 'the pay screen', { timeout: 8000 });
      await fake.set({ state: 'finished' });
      await waitUntil(() => page.el().screen === 'paid', 'the paid screen', { timeout: 8000 });
      expect(page.violations()).to.deep.equal([]);
      const root = page.el().shadowRoot!;
      expect(root.querySelectorAll('style, [style]')).to.have.length(0);
      expect(root.adoptedStyleSheets.length).to.be.at.least(1);
      const base = root.querySelector('[part~="base"]')!;
      expect(page.frame.contentWindow!.getComputedStyle(base).borderTopStyle).to.equal('solid');
    } finally {
      page.remove();
    }
  });
});
