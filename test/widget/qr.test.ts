import { expect } from '@open-wc/testing';
import { setViewport } from '@web/test-runner-commands';
import jsQRModule from 'jsqr';
import { render } from 'lit';
import { qrSvg } from '../../src/widget/qr-code.js';
import { qrMatrix } from '../../src/widget/qr-matrix.js';
import { fakeScenario, mount, part, untilScreen } from './support/helpers.js';

// jsqr is CommonJS: served as an ES module its default export is the function itself.
const jsQR = jsQRModule as unknown as typeof jsQRModule.default;

/** Draws the SVG as the browser shows it, at its own size, and reads it back with a QR reader. */
async function decode(svg: SVGSVGElement): Promise<string | undefined> {
  const width = svg.width.baseVal.value;
  const markup = new XMLSerializer().serializeToString(svg);
  const image = new Image();
  image.src = `data:image/svg+xml;charset=utf-8,${encodeURIComponent(markup)}`;
  await image.decode();
  const canvas = document.createElement('canvas');
  canvas.width = canvas.height = width;
  const context = canvas.getContext('2d')!;
  context.drawImage(image, 0, 0, width, width);
  const pixels = context.getImageData(0, 0, width, width);
  return jsQR(pixels.data, width, width)?.data;
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
    const size = qrMatrix(text).size;
    const host = document.createElement('div');
    document.body.append(host);
    render(qrSvg(text, 'QR')!, host);
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

  it('encodes long and non-Latin texts the reader gets back intact', async () => {
    for (const text of [
      'https://qr.nspk.ru/AS1000670LSS7DN18SJQDNP4B05KLJL2?type=01&bank=100000000001&sum=150000&cur=RUB&crc=C08B',
      'Оплата заказа №42 — भुगतान ✓'.repeat(4),
    ]) {
      const host = document.createElement('div');
      document.body.append(host);
      render(qrSvg(text, 'QR')!, host);
      expect(await decode(host.querySelector('svg')!)).to.equal(text);
      host.remove();
    }
  });

  it('on a phone offers to open the payment app, only for upi:// and https:// texts', async () => {
    await setViewport({ width: 380, height: 800 });
    try {
      const fake = await fakeScenario();
      const el = await mount(fake.endpoint, { method: 'upi' });
      await el.start();
      await untilScreen(el, 'pay');
      expect(part<HTMLAnchorElement>(el, 'open-app')!.getAttribute('href')).to.equal(el.payment!.qr);

      const hostile = await fakeScenario({ qr: 'javascript:alert(1)' });
      const other = await mount(hostile.endpoint, { method: 'sbp' });
      await other.start();
      await untilScreen(other, 'pay');
      expect(part(other, 'open-app')).to.equal(null);
    } finally {
      await setViewport({ width: 1024, height: 768 });
    }
  });

  it('on a desktop shows the QR without the app button', async () => {
    const fake = await fakeScenario();
    const el = await mount(fake.endpoint, { method: 'upi' });
    await el.start();
    await untilScreen(el, 'pay');
    expect(part(el, 'qr')).to.exist;
    expect(part(el, 'open-app')).to.equal(null);
  });

  it('shows the hosted page of an SBP payment as a QR and an app link', async () => {
    await setViewport({ width: 380, height: 800 });
    try {
      const fake = await fakeScenario({ qr: 'https://pay.example/p/123' });
      const el = await mount(fake.endpoint, { method: 'sbp' });
      await el.start();
      await untilScreen(el, 'pay');
      expect(await decode(part<SVGSVGElement>(el, 'qr')!)).to.equal('https://pay.example/p/123');
      expect(part<HTMLAnchorElement>(el, 'open-app')!.href).to.equal('https://pay.example/p/123');
      expect(part(el, 'instruction')).to.equal(null);
    } finally {
      await setViewport({ width: 1024, height: 768 });
    }
  });
});
