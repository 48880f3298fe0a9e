/**
 * The QR drawn from the module matrix the proxy sends (PaymentView.qrMatrix), without the encoder; and the
 * qr-encoder part, loaded only when the matrix is missing or garbled, drawing the same code; not loaded when the
 * proxy says no QR can hold the text (a null matrix). The tests run in
 * order on one page: the first must see the part not loaded yet (a module, once imported, stays for the page).
 */
import { expect } from '@open-wc/testing';
import { qrMatrix } from '../../src/proxy/http/qr-matrix-answer.js';
import { packQrModules } from '../../src/shared/qr-modules.js';
import { fakeScenario, mount, part, untilScreen } from './support/helpers.js';
import { decode } from './support/read-qr.js';

/** Whether the page has fetched the ES module build's qr-encoder part. */
const encoderFetched = () => performance.getEntriesByType('resource').some((entry) => /\/parts\/qr-encoder\.[jt]s/.test(entry.name));

/** What the fake proxy answers for a UPI payment of the default order (fake-proxy.mjs). */
const QR_TEXT = /^upi:\/\/pay\?pa=shop%40okbank/;

async function paidQr(options: Record<string, unknown>) {
  const fake = await fakeScenario(options);
  const el = await mount(fake.endpoint, { method: 'upi', platform: 'desktop' });
  await el.start();
  await untilScreen(el, 'pay');
  await el.updateComplete;
  return el;
}

describe('the QR from the proxy', () => {
  it('is drawn from the matrix that came with the payment, without loading the encoder', async () => {
    // The matrix of a different text than the payment's: what is drawn is what was sent, not encoded here.
    const sent = 'upi://pay?pa=sent%40bank&pn=Sent';
    const el = await paidQr({ qrMatrix: packQrModules(qrMatrix(sent)) });
    expect(el.payment!.qr).to.match(QR_TEXT);
    expect(await decode(part<SVGSVGElement>(el, 'qr')!)).to.equal(sent);
    expect(encoderFetched()).to.equal(false);
  });

  it('with a null matrix (no QR can hold the text), shows the requisites without loading the encoder', async () => {
    const errors: unknown[] = [];
    const listener = (e: ErrorEvent) => errors.push(e.error);
    window.addEventListener('error', listener);
    const el = await paidQr({ qr: `upi://pay?pa=shop%40okbank&tn=${'x'.repeat(3000)}`, qrMatrix: null });
    window.removeEventListener('error', listener);
    expect(errors).to.deep.equal([]);
    expect(el.payment!.qrMatrix).to.equal(null);
    await new Promise((resolve) => setTimeout(resolve, 100)); // a part the element asked for would be on its way
    expect(encoderFetched()).to.equal(false);
    expect(part(el, 'qr')).to.equal(null);
    expect(part(el, 'requisites')!.textContent).to.contain('shop@okbank');
    el.remove();
  });

  it('without a matrix, loads the qr-encoder part and draws the payment QR', async () => {
    const el = await paidQr({});
    expect(el.payment!.qrMatrix).to.equal(undefined);
    expect(await decode(part<SVGSVGElement>(el, 'qr')!)).to.equal(el.payment!.qr);
    expect(encoderFetched()).to.equal(true);
  });

  it('with a garbled matrix, does not throw and draws the payment QR with the encoder', async () => {
    const good = packQrModules(qrMatrix('upi://pay?pa=x%40y'));
    for (const garbled of [
      { size: good.size, dark: good.dark.slice(4) }, // bits missing
      { size: 22, dark: good.dark }, // no QR's side
      { size: good.size, dark: `${good.dark.slice(0, -8)}!@#$%^&*` }, // not base64
      { size: good.size, dark: `==${good.dark.slice(2)}` }, // base64's shape, not its content
      'not an object',
    ]) {
      const errors: unknown[] = [];
      const listener = (e: ErrorEvent) => errors.push(e.error);
      window.addEventListener('error', listener);
      const el = await paidQr({ qrMatrix: garbled });
      window.removeEventListener('error', listener);
      expect(errors, JSON.stringify(garbled)).to.deep.equal([]);
      expect(el.payment!.qrMatrix, JSON.stringify(garbled)).to.equal(undefined);
      expect(await decode(part<SVGSVGElement>(el, 'qr')!), JSON.stringify(garbled)).to.equal(el.payment!.qr);
      el.remove();
    }
  });

  it('without a matrix, a text no QR can hold: the encoder fails, no error escapes, the requisites say how to pay', async () => {
    const errors: unknown[] = [];
    const listener = (e: ErrorEvent) => errors.push(e.error);
    window.addEventListener('error', listener);
    const el = await paidQr({ qr: `upi://pay?pa=shop%40okbank&tn=${'x'.repeat(3000)}` });
    window.removeEventListener('error', listener);
    expect(errors).to.deep.equal([]);
    expect(encoderFetched()).to.equal(true);
    expect(part(el, 'qr')).to.equal(null);
    expect(part(el, 'requisites')!.textContent).to.contain('shop@okbank');
    el.remove();
  });
});
