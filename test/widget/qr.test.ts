import { expect } from '@open-wc/testing';
import { render } from 'lit';
import { qrMatrix } from '../../src/proxy/http/qr-matrix-answer.js';
import type { PayinCheckout } from '../../src/widget/index.js';
import * as encoderPart from '../../src/widget/parts/qr-encoder.js';
import { qrSvg } from '../../src/widget/qr-code.js';
import { fakeScenario, mount, part, parts, untilScreen } from './support/helpers.js';
import { decode } from './support/read-qr.js';

/** On a phone the QR is inside the "Pay from another device" fold, closed at first, and still reads back. */
async function foldedQr(el: PayinCheckout, text: string): Promise<void> {
  const fold = part<HTMLDetailsElement>(el, 'other-device')!;
  expect(fold.tagName).to.equal('DETAILS');
  expect(fold.open).to.equal(false);
  const svg = part<SVGSVGElement>(el, 'qr')!;
  expect(fold.contains(svg)).to.equal(true);
  expect(await decode(svg)).to.equal(text);
  part(el, 'other-device-toggle')!.click();
  await el.updateComplete;
  expect(fold.open).to.equal(true);
  expect(svg.getBoundingClientRect().width).to.be.greaterThan(100);
}

describe('the QR code', () => {
  it('is one SVG path that a QR reader decodes at the size it is drawn, with a text alternative', async () => {
    const fake = await fakeScenario();
    const el = await mount(fake.endpoint, { method: 'upi' });
    await el.start();
    await untilScreen(el, 'pay');
    const svg = part<SVGSVGElement>(el, 'qr')!;
    expect(svg.querySelectorAll('path')).to.have.length(1);
    expect(svg.getAttribute('role')).to.equal('img');
    expect(svg.getAttribute('aria-label')).to.contain('QR code');
    expect(await decode(svg)).to.equal(el.payment!.qr);
  });

  it('keeps a quiet zone of four modules and at least 4 px per module', () => {
    const text = 'upi://pay?pa=shop%40okbank&pn=Shop&am=1.00&cu=INR';
    const matrix = qrMatrix(text);
    const { size } = matrix;
    const host = document.createElement('div');
    document.body.append(host);
    render(qrSvg(matrix, 'QR'), host);
    const svg = host.querySelector('svg')!;
    expect(svg.getAttribute('viewBox')).to.equal(`0 0 ${size + 8} ${size + 8}`);
    const xs = [
      ...svg
        .querySelector('path')!
        .getAttribute('d')!
        .matchAll(/M(\d+) (\d+)/g),
    ].flatMap((m) => [Number(m[1]), Number(m[2])]);
    expect(Math.min(...xs)).to.equal(4);
    expect(Math.max(...xs)).to.equal(size + 3);
    expect(svg.width.baseVal.value / (size + 8)).to.be.at.least(4);
    host.remove();
  });

  it('encodes long and non-Latin texts the reader gets back intact, with the qr-encoder part too', async () => {
    for (const text of [
      'https://qr.nspk.ru/AS1000670LSS7DN18SJQDNP4B05KLJL2?type=01&bank=100000000001&sum=150000&cur=RUB&crc=C08B',
      'Оплата заказа №42 — भुगतान ✓'.repeat(4),
    ]) {
      for (const [encoder, encode] of [
        ['the proxy', qrMatrix],
        ['the qr-encoder part', encoderPart.qrMatrix],
      ] as const) {
        const host = document.createElement('div');
        document.body.append(host);
        render(qrSvg(encode(text), 'QR'), host);
        expect(await decode(host.querySelector('svg')!), encoder).to.equal(text);
        host.remove();
      }
    }
  });

  it('the qr-encoder part throws, as the proxy does, for a text no QR can hold at level M', () => {
    // The largest QR (version 40) holds 2,331 bytes at level M; lean-qr marks its bytes as UTF-8 (an ECI header,
    // 12 bits more), so the part holds 2,330 of them.
    expect(encoderPart.qrMatrix('x'.repeat(2330)).size).to.equal(177);
    expect(() => encoderPart.qrMatrix('x'.repeat(2331))).to.throw(/lean-qr error 4/);
    expect(qrMatrix('x'.repeat(2331)).size).to.equal(177);
    expect(() => qrMatrix('x'.repeat(2332))).to.throw();
  });

  it('on an Android phone offers each UPI app by its package, any UPI app, and the QR folded away', async () => {
    const fake = await fakeScenario();
    const el = await mount(fake.endpoint, { method: 'upi', platform: 'android' });
    await el.start();
    await untilScreen(el, 'pay');
    const qr = el.payment!.qr!;
    const query = qr.slice('upi://pay?'.length); // the service's own query, never rebuilt
    expect(qr).to.match(/^upi:\/\/pay\?pa=/);
    expect(parts<HTMLAnchorElement>(el, 'app-link').map((a) => [a.textContent!.trim(), a.getAttribute('href')])).to.deep.equal([
      ['Google Pay', `intent://pay?${query}#Intent;scheme=upi;package=com.google.android.apps.nbu.paisa.user;end`],
      ['PhonePe', `intent://pay?${query}#Intent;scheme=upi;package=com.phonepe.app;end`],
      ['Paytm', `intent://pay?${query}#Intent;scheme=upi;package=net.one97.paytm;end`],
      ['BHIM', `intent://pay?${query}#Intent;scheme=upi;package=in.org.npci.upiapp;end`],
      ['Any UPI app', `upi://pay?${query}`],
    ]);
    expect(part(el, 'open-app')).to.equal(null);
    await foldedQr(el, qr);
  });

  it('on an iPhone offers each UPI app by its own scheme, and "other" as upi://', async () => {
    const fake = await fakeScenario();
    const el = await mount(fake.endpoint, { method: 'upi', platform: 'ios' });
    await el.start();
    await untilScreen(el, 'pay');
    const qr = el.payment!.qr!;
    const query = qr.slice('upi://pay?'.length);
    expect(parts<HTMLAnchorElement>(el, 'app-link').map((a) => a.getAttribute('href'))).to.deep.equal([
      `gpay://upi/pay?${query}`,
      `phonepe://pay?${query}`,
      `paytmmp://upi/pay?${query}`,
      `bhim://upi/pay?${query}`,
      `upi://pay?${query}`,
    ]);
    await foldedQr(el, qr);
  });

  it('on a phone makes no link of a text that is no payment link', async () => {
    for (const method of ['upi', 'sbp']) {
      const fake = await fakeScenario({ qr: 'javascript:alert(1)' });
      const el = await mount(fake.endpoint, { method, platform: 'android' });
      await el.start();
      await untilScreen(el, 'pay');
      const hrefs = [...el.shadowRoot!.querySelectorAll('a')].map((a) => a.getAttribute('href') ?? '');
      const unsafe = hrefs.filter((h) => !/^(intent|upi|https):/.test(h));
      expect(unsafe, method).to.deep.equal([]);
      expect(parts(el, 'app-link'), method).to.have.length(0);
      expect(part(el, 'open-app'), method).to.equal(null);
    }
  });

  it('on a desktop shows the QR without app links', async () => {
    const fake = await fakeScenario();
    const el = await mount(fake.endpoint, { method: 'upi', platform: 'desktop' });
    await el.start();
    await untilScreen(el, 'pay');
    expect(part(el, 'qr')).to.exist;
    expect(part(el, 'other-device')).to.equal(null);
    expect(parts(el, 'app-link')).to.have.length(0);
    expect(part(el, 'open-app')).to.equal(null);
  });

  it('on a phone offers the hosted page of an SBP payment as a link, and its QR folded away', async () => {
    const fake = await fakeScenario({ qr: 'https://pay.example/p/123' });
    const el = await mount(fake.endpoint, { method: 'sbp', platform: 'android' });
    await el.start();
    await untilScreen(el, 'pay');
    expect(part<HTMLAnchorElement>(el, 'open-app')!.href).to.equal('https://pay.example/p/123');
    expect(part(el, 'instruction')).to.equal(null);
    await foldedQr(el, 'https://pay.example/p/123');
  });
});
