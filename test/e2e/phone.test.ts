/**
 * Paying on the phone that shows the checkout (issue 11, docs/phone-links.md): on an Android and an iPhone
 * profile the shopper taps their UPI app or their SBP bank in the element, the sandbox plays that app (its
 * /phone page: payee, amount, order, Pay), and back in the shop the element says "paid". Each link is checked
 * against the link contract, built here from the sandbox's own record of the payment. The QR folds behind "Pay
 * from another device" on the phone and is open on a desktop. The screens are kept in test-results/phone/.
 */
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { newContext } from './support/browser.js';
import {
  appShows,
  backToShop,
  c2bLinkOf,
  cspViolations,
  elementQr,
  expectedUpiQuery,
  expectInFirstScreen,
  expectNoSidewaysScroll,
  keepScreen,
  newPhoneContext,
  payInApp,
  payinEvents,
  tapThrough,
} from './support/phone.js';
import { pendingPaymentOf, type SandboxPayment, sandboxPayments, waitFor } from './support/services.js';
import { checkoutOnShop, expectPaidAndAnnouncedOnce, waitForScreen } from './support/shopper.js';
import { useDemo } from './support/use-demo.js';

// The demo's default: SBP payments alternate between a C2B qr.nspk.ru link and a phone number.
const live = useDemo({ SANDBOX_SBP_SHAPE: 'both' });

const ANDROID_PACKAGES = {
  gpay: 'com.google.android.apps.nbu.paisa.user',
  phonepe: 'com.phonepe.app',
  paytm: 'net.one97.paytm',
  bhim: 'in.org.npci.upiapp',
};

/** The element's app links as shown, in order. */
async function appLinks(page: Page): Promise<{ app: string; href: string; label: string }[]> {
  const links = page.locator('payin-checkout [part="app-link"]');
  await links.first().waitFor();
  return links.evaluateAll((anchors) =>
    anchors.map((a) => ({ app: a.getAttribute('data-app')!, href: a.getAttribute('href')!, label: a.textContent!.trim() })),
  );
}

/** Sees the element say paid after the shopper came back, and the shop's hook announce it once. */
async function expectPaidBack(page: Page, orderId: string, amount: string, currency: string, shot: string): Promise<void> {
  await waitForScreen(page, 'paid');
  await page.locator('payin-checkout').getByRole('heading', { name: 'Payment received' }).waitFor();
  await keepScreen(page, shot);
  const seen = await payinEvents(page);
  expect(seen[0], 'the checkout, loaded again, found its payment instead of creating one').toEqual({
    type: 'payin-created',
    resumed: true,
  });
  expect(seen.filter((e) => e.type === 'payin-paid')).toHaveLength(1);
  await expectPaidAndAnnouncedOnce(live.demo.storeUrl, live.demo.sandboxUrl, orderId, { amount, currency });
  const payments = (await sandboxPayments(live.demo.sandboxUrl)).filter((p) => p.orderId === orderId);
  expect(
    payments.map((p) => p.state),
    'coming back resumed the payment: no second one',
  ).toEqual(['finished']);
}

type SbpShape = 'c2b' | 'phone';

/**
 * Checks out an order by SBP on the strict-CSP shop until the sandbox hands over a payment of `shape` (it
 * alternates them): at most three orders.
 */
async function sbpCheckout(page: Page, shape: SbpShape): Promise<{ orderId: string; payment: SandboxPayment }> {
  for (let attempt = 0; attempt < 3; attempt++) {
    const orderId = await checkoutOnShop(page, live.demo.storeUrl, '/strict', 'sbp');
    await waitForScreen(page, 'pay');
    const payment = await pendingPaymentOf(live.demo.sandboxUrl, orderId, 'sbp');
    if ((c2bLinkOf(payment) ? 'c2b' : 'phone') === shape) return { orderId, payment };
  }
  throw new Error(`the sandbox handed over no SBP payment of the ${shape} shape in three orders`);
}

interface Member {
  bankName: string;
  schema: string;
  package_name: string;
}

/** The NSPK list as the sandbox serves it to the proxy: what every bank link is checked against. */
async function members(): Promise<Member[]> {
  const answer = await fetch(`${live.demo.sandboxUrl}/proxyapp/c2bmembers.json`, { signal: AbortSignal.timeout(10_000) });
  return ((await answer.json()) as { dictionary: Member[] }).dictionary;
}

/** The banks the chooser shows, in order, with their links and logos. */
async function bankLinks(page: Page): Promise<{ name: string; schema: string; href: string; logo?: string; logoWidth?: number }[]> {
  const links = page.locator('payin-checkout [part="bank-link"]');
  await links.first().waitFor();
  return links.evaluateAll((anchors) =>
    anchors.map((a) => {
      const img = a.querySelector('img');
      return {
        name: a.textContent!.trim(),
        schema: a.getAttribute('data-schema')!,
        href: a.getAttribute('href')!,
        ...(img ? { logo: img.src, logoWidth: img.naturalWidth } : {}),
      };
    }),
  );
}

/** The bank list came from the proxy, ranked, each logo from the proxy's origin and loaded. */
async function expectBankList(page: Page): Promise<{ name: string; schema: string; href: string }[]> {
  const banks = await waitFor('every bank logo to load', async () => {
    const shown = await bankLinks(page);
    return shown.every((b) => b.logo && (b.logoWidth ?? 0) > 0) ? shown : undefined;
  });
  const all = await members();
  expect(banks.map((b) => b.schema).sort()).toEqual(all.map((m) => m.schema).sort());
  expect(
    banks.slice(0, 4).map((b) => b.name),
    'the largest banks first',
  ).toEqual(['Сбербанк', 'Т-Банк', 'ВТБ', 'Альфа-Банк']);
  for (const bank of banks) {
    expect(bank.logo, `the logo of ${bank.name} comes from the proxy`).toBe(
      `${live.demo.storeUrl}/payin/sbp-banks/logos/${bank.schema}.png`,
    );
  }
  return banks;
}

describe('paying by UPI on the phone', () => {
  it('on Android: the app chooser in the first screen, an intent per app, the app pays, back in the shop it says paid', async () => {
    const context = await newPhoneContext(live.browser, 'android', live.demo.sandboxUrl);
    const page = await context.newPage();
    const orderId = await checkoutOnShop(page, live.demo.storeUrl, '/shop', 'upi');
    await waitForScreen(page, 'pay');
    const payment = await pendingPaymentOf(live.demo.sandboxUrl, orderId, 'upi');
    const q = expectedUpiQuery(payment, '499.00');
    expect(await elementQr(page), 'the proxy handed over the UPI link of the spec').toBe(`upi://pay?${q}`);

    const links = await appLinks(page);
    expect(links.map(({ app, href }) => ({ app, href }))).toEqual([
      ...Object.entries(ANDROID_PACKAGES).map(([app, pkg]) => ({ app, href: `intent://pay?${q}#Intent;scheme=upi;package=${pkg};end` })),
      { app: 'any', href: `upi://pay?${q}` },
    ]);
    expect(links.map((l) => l.label)).toEqual(['Google Pay', 'PhonePe', 'Paytm', 'BHIM', 'Any UPI app']);
    const chooser = page.locator('payin-checkout [part="app-chooser"]');
    await keepScreen(page, 'upi-android-1-chooser');
    await expectInFirstScreen(page, chooser, 'the app chooser');
    await expectNoSidewaysScroll(page);

    await tapThrough(page, page.locator('payin-checkout [part="app-link"][data-app="gpay"]'), live.demo.sandboxUrl);
    await page.getByRole('heading', { name: 'Pay with Google Pay' }).waitFor();
    const { address, recipient } = payment.requisites!;
    expect(await appShows(page)).toEqual({ Payee: `${recipient} (${address})`, Amount: '499.00 INR', Reference: orderId });
    await keepScreen(page, 'upi-android-2-app');
    await payInApp(page);
    await keepScreen(page, 'upi-android-3-app-paid');

    await backToShop(page);
    await expectPaidBack(page, orderId, '499.00', 'INR', 'upi-android-4-paid');
    await context.close();
  });

  it("on an iPhone: the apps' own schemes with the same query, PhonePe pays, back in the shop it says paid", async () => {
    const context = await newPhoneContext(live.browser, 'iphone', live.demo.sandboxUrl);
    const page = await context.newPage();
    const orderId = await checkoutOnShop(page, live.demo.storeUrl, '/shop', 'upi');
    await waitForScreen(page, 'pay');
    const payment = await pendingPaymentOf(live.demo.sandboxUrl, orderId, 'upi');
    const q = expectedUpiQuery(payment, '499.00');

    const links = await appLinks(page);
    expect(links.map(({ app, href }) => ({ app, href }))).toEqual([
      { app: 'gpay', href: `gpay://upi/pay?${q}` },
      { app: 'phonepe', href: `phonepe://pay?${q}` },
      { app: 'paytm', href: `paytmmp://upi/pay?${q}` },
      { app: 'bhim', href: `bhim://upi/pay?${q}` },
      { app: 'any', href: `upi://pay?${q}` },
    ]);
    expect(
      links.some((l) => l.href.startsWith('intent:')),
      'no Android intent on an iPhone',
    ).toBe(false);
    await keepScreen(page, 'upi-iphone-1-chooser');
    await expectInFirstScreen(page, page.locator('payin-checkout [part="app-chooser"]'), 'the app chooser');
    await expectNoSidewaysScroll(page);

    await tapThrough(page, page.locator('payin-checkout [part="app-link"][data-app="phonepe"]'), live.demo.sandboxUrl);
    await page.getByRole('heading', { name: 'Pay with PhonePe' }).waitFor();
    const { address, recipient } = payment.requisites!;
    expect(await appShows(page)).toEqual({ Payee: `${recipient} (${address})`, Amount: '499.00 INR', Reference: orderId });
    await keepScreen(page, 'upi-iphone-2-app');
    await payInApp(page);

    await backToShop(page);
    await expectPaidBack(page, orderId, '499.00', 'INR', 'upi-iphone-3-paid');
    await context.close();
  });
});

describe('paying by SBP on the phone, through the bank chooser', () => {
  it('on Android, a C2B payment: the list from the proxy, search, an intent to qr.nspk.ru for the bank, the bank pays', async () => {
    const context = await newPhoneContext(live.browser, 'android', live.demo.sandboxUrl);
    const page = await context.newPage();
    const { orderId, payment } = await sbpCheckout(page, 'c2b');
    const link = c2bLinkOf(payment)!;
    expect(await elementQr(page), 'the proxy handed over the C2B link unchanged').toBe(link);

    const banks = await expectBankList(page);
    const byPackage = new Map((await members()).map((m) => [m.schema, m.package_name]));
    for (const bank of banks) {
      expect(bank.href).toBe(`intent://${link.slice('https://'.length)}#Intent;scheme=https;package=${byPackage.get(bank.schema)};end`);
    }
    await keepScreen(page, 'sbp-android-1-chooser');
    const search = page.locator('payin-checkout [part="bank-search"]');
    await expectInFirstScreen(page, search, 'the bank search');
    await expectInFirstScreen(page, page.locator('payin-checkout [part="bank-link"]').first(), 'the first bank');
    await expectNoSidewaysScroll(page);

    await search.fill('альфа');
    await expect.poll(async () => (await bankLinks(page)).map((b) => b.name)).toEqual(['Альфа-Банк']);
    // A keyboard on Latin letters: the name transliterated, and Т-Банк's old name from its app's package, which
    // the proxy passes on from the member list.
    await search.fill('sber');
    await expect.poll(async () => (await bankLinks(page)).map((b) => b.name)).toEqual(['Сбербанк']);
    await keepScreen(page, 'sbp-android-1a-latin-search');
    await search.fill('tinkoff');
    await expect.poll(async () => (await bankLinks(page)).map((b) => b.name)).toEqual(['Т-Банк']);
    await search.fill('no such bank anywhere');
    await page.locator('payin-checkout').getByText('No such bank.').waitFor();
    expect(await page.locator('payin-checkout [part="bank-link"]').count()).toBe(0);
    await search.fill('Альфа');
    const alfa = page.locator('payin-checkout [part="bank-link"]', { hasText: 'Альфа-Банк' });
    await alfa.waitFor();
    await keepScreen(page, 'sbp-android-1b-search');
    expect(await cspViolations(page), 'the strict CSP allowed every logo').toEqual([]);

    const href = await tapThrough(page, alfa, live.demo.sandboxUrl);
    expect(href).toContain('package=ru.alfabank.mobile.android');
    await page.getByRole('heading', { name: 'Альфа-Банк: pay by SBP' }).waitFor();
    const { recipient, bank } = payment.requisites!;
    const qrId = /^https:\/\/qr\.nspk\.ru\/([^?]+)/.exec(link)![1];
    expect(await appShows(page)).toEqual({ Payee: `${recipient}, ${bank}`, Amount: '450.00 RUB', Reference: orderId, 'SBP payment': qrId });
    await keepScreen(page, 'sbp-android-2-bank');
    await payInApp(page);

    await backToShop(page);
    await expectPaidBack(page, orderId, '450.00', 'RUB', 'sbp-android-3-paid');
    await context.close();
  });

  it("on Android, a transfer to a phone number: the chooser copies the number and opens the bank's app, the shopper transfers", async () => {
    const context = await newPhoneContext(live.browser, 'android', live.demo.sandboxUrl);
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: live.demo.storeUrl });
    const page = await context.newPage();
    const { orderId, payment } = await sbpCheckout(page, 'phone');
    const phone = payment.requisites!.address;
    expect(await elementQr(page), 'a transfer to a phone number has no C2B link').not.toMatch(/qr\.nspk\.ru/);

    const banks = await expectBankList(page);
    const byPackage = new Map((await members()).map((m) => [m.schema, m.package_name]));
    for (const bank of banks) {
      expect(bank.href).toBe(`intent://open#Intent;scheme=${bank.schema};package=${byPackage.get(bank.schema)};end`);
    }
    const chooser = page.locator('payin-checkout [part="bank-chooser"]');
    await chooser.getByText(`Choosing a bank copies the number: transfer by SBP to ${phone}.`).waitFor();
    await keepScreen(page, 'sbp-phone-android-1-chooser');
    await expectInFirstScreen(page, page.locator('payin-checkout [part="bank-link"]').first(), 'the first bank');
    await expectNoSidewaysScroll(page);

    await tapThrough(page, page.locator('payin-checkout [part="bank-link"]', { hasText: 'Сбербанк' }), live.demo.sandboxUrl);
    await page.getByRole('heading', { name: 'Сбербанк: transfer by SBP' }).waitFor();
    await keepScreen(page, 'sbp-phone-android-2-bank');
    // In the bank's app: paste the number the chooser copied, type the sum.
    await page.getByLabel('Phone number').fill(phone);
    await page.getByLabel('Amount, RUB').fill('450.00');
    await Promise.all([page.waitForURL(/[?&]phone=/), page.locator('#find').tap()]);
    await page.locator('ul.phone-payments').getByText(`Order ${orderId}:`).waitFor();
    await payInApp(page);
    await keepScreen(page, 'sbp-phone-android-3-bank-paid');

    // The transfer form replaced its page, so "Back to the shop" leads to the shop, not to the form again.
    await backToShop(page);
    expect(await page.evaluate(() => navigator.clipboard.readText()), 'the tap on the bank copied the phone number').toBe(phone);
    await expectPaidBack(page, orderId, '450.00', 'RUB', 'sbp-phone-android-4-paid');
    await context.close();
  });

  it("on an iPhone, a C2B payment: the link is keyed on the bank's schema, the bank pays", async () => {
    const context = await newPhoneContext(live.browser, 'iphone', live.demo.sandboxUrl);
    const page = await context.newPage();
    const { orderId, payment } = await sbpCheckout(page, 'c2b');
    const link = c2bLinkOf(payment)!;

    const banks = await expectBankList(page);
    for (const bank of banks) expect(bank.href).toBe(`${bank.schema}://${link.slice('https://'.length)}`);
    await keepScreen(page, 'sbp-iphone-1-chooser');
    await expectInFirstScreen(page, page.locator('payin-checkout [part="bank-link"]').first(), 'the first bank');

    await tapThrough(page, page.locator('payin-checkout [part="bank-link"]', { hasText: 'Т-Банк' }), live.demo.sandboxUrl);
    await page.getByRole('heading', { name: 'Т-Банк: pay by SBP' }).waitFor();
    const { recipient, bank } = payment.requisites!;
    expect(await appShows(page)).toMatchObject({ Payee: `${recipient}, ${bank}`, Amount: '450.00 RUB', Reference: orderId });
    await keepScreen(page, 'sbp-iphone-2-bank');
    await payInApp(page);

    await backToShop(page);
    await expectPaidBack(page, orderId, '450.00', 'RUB', 'sbp-iphone-3-paid');
    await context.close();
  });
});

describe('the QR code', () => {
  it('is folded behind "Pay from another device" on the phone, and unfolds with a way to keep it', async () => {
    const context = await newPhoneContext(live.browser, 'android', live.demo.sandboxUrl);
    const page = await context.newPage();
    await checkoutOnShop(page, live.demo.storeUrl, '/shop', 'upi');
    await waitForScreen(page, 'pay');
    const fold = page.locator('payin-checkout [part="other-device"]');
    const qr = page.locator('payin-checkout [part="qr"]');
    await fold.waitFor();
    expect(await fold.evaluate((d) => (d as HTMLDetailsElement).open)).toBe(false);
    expect(await qr.isVisible(), 'the QR is folded away').toBe(false);
    await page.locator('payin-checkout [part="other-device-toggle"]').scrollIntoViewIfNeeded();
    await keepScreen(page, 'qr-android-1-folded');

    await page.locator('payin-checkout [part="other-device-toggle"]').tap();
    await qr.waitFor();
    await page.locator('payin-checkout [part="save-link"], payin-checkout [part="share-button"]').first().waitFor();
    await page.locator('payin-checkout [part="other-device"]').getByText('Scan it there, or save it').waitFor();
    await qr.scrollIntoViewIfNeeded();
    await keepScreen(page, 'qr-android-2-unfolded');
    await expectNoSidewaysScroll(page);
    await context.close();
  });

  it('stays folded behind the app chooser when the phone is turned on its side', async () => {
    const context = await newPhoneContext(live.browser, 'iphone', live.demo.sandboxUrl);
    const page = await context.newPage();
    await checkoutOnShop(page, live.demo.storeUrl, '/shop', 'upi');
    await waitForScreen(page, 'pay');
    await page.locator('payin-checkout [part="app-chooser"]').waitFor();
    // An iPhone 15 in landscape: 844 CSS px wide (Safari's bars take some of its 390 px of height); a Plus is 932 wide.
    for (const landscape of [
      { width: 844, height: 340 },
      { width: 932, height: 370 },
    ]) {
      await page.setViewportSize(landscape);
      // A media query's change is told in the next frame's rendering steps; the element has drawn it by the one after.
      await page.evaluate(() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done))));
      expect(await page.locator('payin-checkout [part="app-chooser"]').count(), `the app chooser at ${landscape.width} px`).toBe(1);
      expect(await page.locator('payin-checkout [part="qr"]').isVisible(), `the QR is still folded at ${landscape.width} px`).toBe(false);
    }
    await keepScreen(page, 'upi-iphone-landscape');
    await context.close();
  });

  it('is open by default on a desktop, with no app chooser', async () => {
    const context = await newContext(live.browser);
    const page = await context.newPage();
    await checkoutOnShop(page, live.demo.storeUrl, '/shop', 'upi');
    await waitForScreen(page, 'pay');
    await page.locator('payin-checkout [part="qr"]').waitFor();
    await page.locator('payin-checkout').getByText('Scan with your phone camera or payment app.').waitFor();
    expect(await page.locator('payin-checkout [part="other-device"]').count()).toBe(0);
    expect(await page.locator('payin-checkout [part="app-chooser"]').count()).toBe(0);
    await keepScreen(page, 'qr-desktop');
    await context.close();
  });
});
