/**
 * The element on the phone that shows it (docs/phone-links.md): the UPI app chooser with Android intents or iOS
 * schemes, the SBP bank chooser from the proxy's list, the remembered choice, the "didn't open?" hint on the
 * element's clock, and the QR folded behind "Pay from another device". `platform` forces the layout, as a phone's
 * user agent would. The taps are real clicks on the anchors; a listener cancels the navigation they would start.
 */
import { expect, waitUntil } from '@open-wc/testing';
import { setViewport } from '@web/test-runner-commands';
import jsQRModule from 'jsqr';
import type { PayinCheckout } from '../../src/widget/index.js';
import { PREFIX } from '../../src/widget/session-store.js';
import { fakeScenario, mount, part, parts, text, untilScreen } from './support/helpers.js';
import { ManualClock } from './support/manual-clock.js';

// jsqr is CommonJS: served as an ES module its default export is the function itself.
const jsQR = jsQRModule as unknown as typeof jsQRModule.default;

/** Reads the QR in an image URL back with a QR reader. */
async function decodeImage(url: string): Promise<string | undefined> {
  const image = new Image();
  image.src = url;
  await image.decode();
  const canvas = document.createElement('canvas');
  canvas.width = image.naturalWidth;
  canvas.height = image.naturalHeight;
  const context = canvas.getContext('2d')!;
  context.drawImage(image, 0, 0);
  return jsQR(context.getImageData(0, 0, canvas.width, canvas.height).data, canvas.width, canvas.height)?.data;
}

const Q = 'pa=shop%40okbank&pn=Demo%20Tea%20Shop&am=499.00&cu=INR&tr=';
const C2B = 'https://qr.nspk.ru/AD10006M8KH1LSBP9B6PG3B6F8S51A3O?type=02&bank=100000000111&sum=150000&cur=RUB&crc=C08B';

/** Clicks an anchor without leaving the test page: the element's own click handler still runs. */
function tap(anchor: HTMLElement): void {
  const stay = (e: Event) => e.preventDefault();
  window.addEventListener('click', stay, { once: true });
  anchor.click();
}

const hrefs = (el: PayinCheckout, name: string) => parts<HTMLAnchorElement>(el, name).map((a) => a.getAttribute('href'));
const bankNames = (el: PayinCheckout) => parts(el, 'bank-link').map((a) => a.lastElementChild!.textContent!.trim());

async function payScreen(options: Record<string, unknown>, attrs: Parameters<typeof mount>[1]) {
  const fake = await fakeScenario(options);
  const el = await mount(fake.endpoint, attrs);
  await el.start();
  await untilScreen(el, 'pay');
  return { fake, el };
}

describe('on a phone', () => {
  before(() => setViewport({ width: 375, height: 667 }));
  after(() => setViewport({ width: 800, height: 600 }));
  beforeEach(() => {
    localStorage.removeItem(`${PREFIX}upi-app`);
    localStorage.removeItem(`${PREFIX}sbp-bank`);
  });

  it('offers each UPI app as an Android intent for the payment, then any UPI app, before the folded QR', async () => {
    const { el } = await payScreen({}, { method: 'upi', platform: 'android' });
    const q = Q + el.payment!.orderId;
    expect(hrefs(el, 'app-link')).to.deep.equal([
      `intent://pay?${q}#Intent;scheme=upi;package=com.google.android.apps.nbu.paisa.user;end`,
      `intent://pay?${q}#Intent;scheme=upi;package=com.phonepe.app;end`,
      `intent://pay?${q}#Intent;scheme=upi;package=net.one97.paytm;end`,
      `intent://pay?${q}#Intent;scheme=upi;package=in.org.npci.upiapp;end`,
      `upi://pay?${q}`,
    ]);
    expect(parts(el, 'app-link').map((a) => a.textContent!.trim())).to.deep.equal([
      'Google Pay',
      'PhonePe',
      'Paytm',
      'BHIM',
      'Any UPI app',
    ]);
    // The first app is the primary button, inside the first screen; the QR is folded away.
    const first = part(el, 'app-link')!;
    expect(first.classList.contains('primary')).to.equal(true);
    expect(first.getBoundingClientRect().bottom).to.be.below(667);
    const fold = part<HTMLDetailsElement>(el, 'other-device')!;
    expect(fold.open).to.equal(false);
    expect(fold.querySelector('[part~="qr"]')).to.not.equal(null);
    // Nothing stretches between the requisites and the fold (the desktop's row layout once gave them 14rem).
    const requisites = part(el, 'requisites')!.getBoundingClientRect();
    expect(fold.getBoundingClientRect().top - requisites.bottom).to.be.below(24);
    expect(part(el, 'qr')!.checkVisibility()).to.equal(false);
  });

  it('uses the apps own schemes on iOS, and only the apps the shop names, in its order', async () => {
    const { el } = await payScreen({}, { method: 'upi', platform: 'ios', upiApps: 'phonepe bhim nosuchapp amazonpay' });
    const q = Q + el.payment!.orderId;
    // Amazon Pay has no iOS scheme, an unknown id is skipped; "other" is the phone's own choice.
    expect(hrefs(el, 'app-link')).to.deep.equal([`phonepe://pay?${q}`, `bhim://upi/pay?${q}`, `upi://pay?${q}`]);
    expect(parts(el, 'app-link').at(-1)!.textContent!.trim()).to.equal('Other UPI app');
  });

  it('passes the service s own UPI link on unchanged, and its own Android intent as the one link', async () => {
    const signed = 'upi://pay?pa=x%40y&am=1.00&cu=INR&tr=T1&sign=AbC%2B%2F%3D';
    const ios = await payScreen({ qr: signed }, { method: 'upi', platform: 'ios' });
    expect(hrefs(ios.el, 'app-link')[0]).to.equal('gpay://upi/pay?pa=x%40y&am=1.00&cu=INR&tr=T1&sign=AbC%2B%2F%3D');
    ios.el.remove();
    const intent = 'intent://pay?pa=x%40y&am=1.00&cu=INR&tr=T1&sign=Zz#Intent;scheme=upi;package=com.phonepe.app;end';
    const android = await payScreen({ qr: intent }, { method: 'upi', platform: 'android' });
    expect(hrefs(android.el, 'app-link')).to.deep.equal([intent]);
  });

  it('builds no app link from a link that would break out of the intent, nor from another scheme', async () => {
    for (const qr of ['upi://pay?pa=x%40y&am=1.00#Intent;scheme=javascript;end', 'javascript:alert(1)//upi://pay?pa=x']) {
      const { el } = await payScreen({ qr }, { method: 'upi', platform: 'android' });
      expect(parts(el, 'app-link')).to.have.length(0);
      expect(part(el, 'requisites')).to.not.equal(null);
      el.remove();
    }
  });

  it('remembers the app tapped and offers it first next time, unless the shop says no-remember', async () => {
    const first = await payScreen({}, { method: 'upi', platform: 'android' });
    tap(parts(first.el, 'app-link')[2]!); // Paytm
    expect(localStorage.getItem(`${PREFIX}upi-app`)).to.equal('paytm');
    first.el.remove();

    const again = await payScreen({}, { method: 'upi', platform: 'android' });
    expect(parts(again.el, 'app-link').map((a) => a.dataset.app)).to.deep.equal(['paytm', 'gpay', 'phonepe', 'bhim', 'any']);
    again.el.remove();

    const opted = await payScreen({}, { method: 'upi', platform: 'android', noRemember: true });
    expect(part(opted.el, 'app-link')!.dataset.app).to.equal('gpay');
    tap(parts(opted.el, 'app-link')[1]!);
    expect(localStorage.getItem(`${PREFIX}upi-app`)).to.equal('paytm');
  });

  it('offers another app or device when the page is still in view two seconds after a tap', async () => {
    const clock = new ManualClock();
    const { el } = await payScreen({}, { method: 'upi', platform: 'android', clock });
    tap(part(el, 'app-link')!);
    await clock.advance(1_900);
    await el.updateComplete;
    expect(text(el)).to.not.contain("Didn't open?");
    await clock.advance(200);
    await el.updateComplete;
    expect(text(el)).to.contain("Didn't open?");
    // "Pay from another device" in the hint unfolds the QR.
    const open = [...el.shadowRoot!.querySelectorAll<HTMLButtonElement>('.notice button')].find((b) =>
      /another device/i.test(b.textContent!),
    )!;
    open.click();
    await el.updateComplete;
    expect(part<HTMLDetailsElement>(el, 'other-device')!.open).to.equal(true);
    expect(part(el, 'qr')!.checkVisibility()).to.equal(true);
    // Headless Chromium cannot share files, so the QR is offered as a PNG to save, which decodes to the payment.
    const save = part<HTMLAnchorElement>(el, 'save-link')!;
    expect(save.getAttribute('download')).to.match(/\.png$/);
    expect(await decodeImage(save.href)).to.equal(el.payment!.qr);
  });

  it('shares the QR as a PNG file alone where the phone can share files, with no screen reader text for a title', async () => {
    const shared: ShareData[] = [];
    const original = { canShare: navigator.canShare, share: navigator.share };
    Object.assign(navigator, { canShare: () => true, share: async (data: ShareData) => void shared.push(data) });
    try {
      const { el } = await payScreen({}, { method: 'upi', platform: 'android' });
      part(el, 'other-device-toggle')!.click();
      await waitUntil(() => part(el, 'share-button'), 'the share button, once the QR is unfolded');
      part(el, 'share-button')!.click();
      // A share target (a chat) sends a title as a message beside the image: the QR's label for screen readers read
      // as "QR code of this payment; the same details are written next to it", next to nothing.
      expect(shared.map((data) => [Object.keys(data), data.files![0]!.type])).to.deep.equal([[['files'], 'image/png']]);
      expect(await decodeImage(URL.createObjectURL(shared[0]!.files![0]!))).to.equal(el.payment!.qr);
    } finally {
      Object.assign(navigator, original);
    }
  });

  it('says nothing when the app opened: the page went into the background within the two seconds', async () => {
    const clock = new ManualClock();
    const { el } = await payScreen({}, { method: 'upi', platform: 'ios', clock });
    tap(part(el, 'app-link')!);
    const visibility = Object.getOwnPropertyDescriptor(Document.prototype, 'visibilityState')!;
    Object.defineProperty(document, 'visibilityState', { configurable: true, get: () => 'hidden' });
    try {
      document.dispatchEvent(new Event('visibilitychange'));
    } finally {
      Object.defineProperty(document, 'visibilityState', visibility);
      delete (document as { visibilityState?: unknown }).visibilityState;
    }
    document.dispatchEvent(new Event('visibilitychange'));
    await clock.advance(3_000);
    await el.updateComplete;
    expect(text(el)).to.not.contain("Didn't open?");
  });

  it('keys each bank link on the bank for a C2B payment: schema on iOS, package on Android', async () => {
    const ios = await payScreen({ qr: C2B }, { method: 'sbp', platform: 'ios', lang: 'ru' });
    await waitUntil(() => parts(ios.el, 'bank-link').length > 0, 'the bank list', { timeout: 5000 });
    // In the proxy's order (the largest banks first).
    expect(bankNames(ios.el).slice(0, 3)).to.deep.equal(['Сбербанк', 'Т-Банк', 'ВТБ']);
    expect(hrefs(ios.el, 'bank-link')[0]).to.equal(`bank100000000111${C2B.slice(5)}`);
    // Logos come from the proxy's origin only, written relative to the list's address (the proxy cannot see a prefix
    // in front of it), and load.
    const logos = [...ios.el.shadowRoot!.querySelectorAll<HTMLImageElement>('[part~="bank-link"] img')];
    expect(logos).to.have.length(9);
    for (const logo of logos) expect(new URL(logo.src).origin).to.equal(location.origin);
    await waitUntil(() => logos.every((logo) => logo.complete && logo.naturalWidth > 0), 'every logo loaded', { timeout: 5000 });
    ios.el.remove();

    const android = await payScreen({ qr: C2B }, { method: 'sbp', platform: 'android' });
    await waitUntil(() => parts(android.el, 'bank-link').length > 0, 'the bank list', { timeout: 5000 });
    expect(hrefs(android.el, 'bank-link')[1]).to.equal(
      `intent://qr.nspk.ru/AD10006M8KH1LSBP9B6PG3B6F8S51A3O?type=02&bank=100000000111&sum=150000&cur=RUB&crc=C08B#Intent;scheme=https;package=com.idamob.tinkoff.android;end`,
    );
  });

  it('filters the banks as the shopper types, and puts the last bank first next time', async () => {
    const { el, fake } = await payScreen({ qr: C2B }, { method: 'sbp', platform: 'android', lang: 'ru' });
    await waitUntil(() => parts(el, 'bank-link').length > 0, 'the bank list', { timeout: 5000 });
    const search = part<HTMLInputElement>(el, 'bank-search')!;
    search.value = 'альфа';
    search.dispatchEvent(new Event('input'));
    await el.updateComplete;
    expect(bankNames(el)).to.deep.equal(['Альфа-Банк']);
    search.value = 'нет такого';
    search.dispatchEvent(new Event('input'));
    await el.updateComplete;
    expect(parts(el, 'bank-link')).to.have.length(0);
    expect(text(el)).to.contain('Такого банка нет.');
    search.value = 'точка';
    search.dispatchEvent(new Event('input'));
    await el.updateComplete;
    tap(part(el, 'bank-link')!);
    el.remove();

    const again = await payScreen({ qr: C2B }, { method: 'sbp', platform: 'ios' });
    await waitUntil(() => parts(again.el, 'bank-link').length > 0, 'the bank list', { timeout: 5000 });
    expect(part(again.el, 'bank-link')!.dataset.schema).to.equal('bank100000000284');
    // One list per page and endpoint: the proxy lets the browser keep it.
    expect((await fake.stats()).bankLists).to.equal(1);
  });

  it('for a transfer to a phone number: opens the bank app and copies the number first', async () => {
    const { el } = await payScreen({}, { method: 'sbp', platform: 'ios', lang: 'en' });
    await waitUntil(() => parts(el, 'bank-link').length > 0, 'the bank list', { timeout: 5000 });
    expect(hrefs(el, 'bank-link')[0]).to.equal('bank100000000111://');
    expect(text(el)).to.contain('+79001234567');
    let copied = '';
    const original = navigator.clipboard.writeText;
    Object.defineProperty(navigator.clipboard, 'writeText', { configurable: true, value: async (t: string) => void (copied = t) });
    try {
      tap(part(el, 'bank-link')!);
      await waitUntil(() => copied === '+79001234567', 'the number copied', { timeout: 3000 });
    } finally {
      Object.defineProperty(navigator.clipboard, 'writeText', { configurable: true, value: original });
    }
  });

  it('drops list entries it cannot trust: bad schemas, foreign logos, packages that would break the intent', async () => {
    const banks = {
      dictionary: [
        { bankName: 'Good', schema: 'bank100000000111', package_name: 'ru.good', logoURL: 'https://elsewhere.example/x.png' },
        { bankName: 'Script', schema: 'javascript', package_name: 'ru.bad' },
        { bankName: 'Broken', schema: 'bank100000000222', package_name: 'ru.bad;end#Intent;scheme=javascript' },
        { bankName: '', schema: 'bank100000000333' },
        null,
      ],
    };
    const { el } = await payScreen({ qr: C2B, banks }, { method: 'sbp', platform: 'android' });
    await waitUntil(() => parts(el, 'bank-link').length > 0, 'the bank list', { timeout: 5000 });
    // Broken keeps its name but has no package, so no Android link; Good has no logo.
    expect(bankNames(el)).to.deep.equal(['Good']);
    expect(el.shadowRoot!.querySelector('[part~="bank-link"] img')).to.equal(null);
  });

  it('asks for the list again when the network or the shopper comes back, after a dropped connection', async () => {
    // On a poor network the one request for the list failed (here a mobile gateway's 502; a dropped connection
    // cannot be counted, as Chromium resends it), and the chooser stayed out for the element's life.
    const { el, fake } = await payScreen({ qr: C2B, failBankLists: 2 }, { method: 'sbp', platform: 'android' });
    await waitUntil(async () => (await fake.stats()).bankLists === 1, 'the first request for the list');
    await el.updateComplete;
    expect(part(el, 'bank-chooser')).to.equal(null);
    window.dispatchEvent(new Event('online'));
    await waitUntil(async () => (await fake.stats()).bankLists === 2, 'a second request, once back online');
    // That one fails too; the shopper comes back to the page (from the bank app, say) when it is up again.
    document.dispatchEvent(new Event('visibilitychange'));
    await waitUntil(() => parts(el, 'bank-link').length > 0, 'the bank list', { timeout: 5000 });
  });

  it('without a list (the proxy cannot serve one) still shows the requisites and the QR', async () => {
    const { el } = await payScreen({ qr: C2B, banks: { error: 'down' } }, { method: 'sbp', platform: 'android' });
    await el.updateComplete;
    expect(part(el, 'bank-chooser')).to.equal(null);
    expect(part(el, 'requisites')).to.not.equal(null);
    expect(part(el, 'other-device')).to.not.equal(null);
  });
});

describe('on a desktop', () => {
  it('shows the QR first, open, with the camera caption, and no app links', async () => {
    const { el } = await payScreen({}, { method: 'upi', platform: 'desktop' });
    expect(part(el, 'qr')!.checkVisibility()).to.equal(true);
    expect(part(el, 'qr')!.getBoundingClientRect().height).to.be.above(100);
    expect(part(el, 'other-device')).to.equal(null);
    expect(parts(el, 'app-link')).to.have.length(0);
    expect(text(el)).to.contain('Scan');
  });
});
