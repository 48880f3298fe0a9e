/**
 * One payment's page in the console, as the operator deciding what to ship or refund reads it, in Chromium
 * against the built proxy, its SQLite ledger and the sandbox (support/console-world.ts), with the CSV beside it.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it, onTestFinished } from 'vitest';
import { useConsoleWorld } from './support/use-console-world.js';
import { act, pendingPaymentOf, waitFor } from './support/services.js';

const live = useConsoleWorld({ signedIn: true, context: { acceptDownloads: true } });

/** The value beside a fact's name on the payment's page (Intl's no-break spaces read as spaces). */
const fact = async (name: string) =>
  ((await live.page.locator(`dt:text-is("${name}") + dd`).textContent()) ?? '').trim().replace(/\s/g, ' ');

/** Creates a pending payment of `orderId`, opens its page from the list and chooses Russian. */
async function openInRussian(orderId: string): Promise<void> {
  const { id } = await live.world.createPayment(orderId);
  await pendingPaymentOf(live.world.sandboxUrl, orderId);
  await live.page.goto(`${live.world.shopUrl}/payin/console`);
  await live.page.getByLabel('Order id or payment id').fill(orderId);
  await live.page.getByRole('button', { name: 'Find' }).click();
  await live.page.getByRole('button', { name: id, exact: true }).click();
  await live.page.getByLabel('Language').selectOption('ru');
}

describe("a payment's page", () => {
  it("shows the shop's price in the shop's currency beside a payment the service reports in another", async () => {
    // The shop priced 499.00 rupees; the service reports 499.00 roubles paid, which cover no such price. (A create
    // answered in roubles is refused: the shopper is asked only the shop's price.)
    const { id } = await live.world.createPayment('P-RUB');
    await pendingPaymentOf(live.world.sandboxUrl, 'P-RUB');
    live.world.serviceCurrency = 'RUB';
    onTestFinished(() => {
      live.world.serviceCurrency = undefined;
    });
    await act(live.world.sandboxUrl, id, 'pay');
    await live.page.getByLabel('Order id or payment id').fill('P-RUB');
    await live.page.getByRole('button', { name: 'Find' }).click();
    await waitFor('the payment underpaid', async () => {
      await live.page.getByRole('button', { name: 'Find' }).click();
      return (await live.page.locator(`tr[data-payment="${id}"]`).getByText('Underpaid').count()) > 0 ? true : undefined;
    });
    await live.page.getByRole('button', { name: id, exact: true }).click();
    await live.page.getByRole('heading', { name: `Payment ${id}` }).waitFor();
    expect(await fact('Amount')).toBe('RUB 499.00');
    expect(await fact('Priced by the shop')).toBe('₹499.00');

    await live.page.getByRole('button', { name: /Back to the list/ }).click();
    const [download] = await Promise.all([
      live.page.waitForEvent('download'),
      live.page.getByRole('button', { name: 'Export CSV' }).click(),
    ]);
    const [header, line] = readFileSync((await download.path())!, 'utf8')
      .trim()
      .split('\r\n');
    const row = Object.fromEntries(header!.split(',').map((column, i) => [column, line!.split(',')[i]]));
    expect(row).toMatchObject({ id, outcome: 'underpaid', amount: '499.00', currency: 'RUB', priced: '499.00', pricedCurrency: 'INR' });
  });

  it('shows, once and in both languages, that the service says paid of a payment the shop was told expired', async () => {
    const { id } = await live.world.createPayment('P-LATE-MONEY');
    await pendingPaymentOf(live.world.sandboxUrl, 'P-LATE-MONEY');
    await act(live.world.sandboxUrl, id, 'expire');
    await waitFor('the shop told of the expiry', () =>
      live.world.announcements.some((a) => a.paymentId === id && a.state === 'expired') ? true : undefined,
    );
    // The shopper's money arrives after the expiry, and the service repeats its callback.
    for (let i = 0; i < 2; i++) expect(await live.world.contradict(id, 'finished')).toBe(200);
    expect(live.world.announcements.filter((a) => a.paymentId === id).map((a) => a.state)).toEqual(['pending', 'expired']);

    await live.page.goto(`${live.world.shopUrl}/payin/console`);
    await live.page.getByLabel('Order id or payment id').fill('P-LATE-MONEY');
    await live.page.getByRole('button', { name: 'Find' }).click();
    await live.page.getByRole('button', { name: id, exact: true }).click();
    await live.page.getByRole('heading', { name: `Payment ${id}` }).waitFor();
    const said = live.page.locator('ol.timeline li').filter({ hasText: 'The service now says finished' });
    await said.waitFor();
    expect(await said.count()).toBe(1);
    expect(((await said.textContent()) ?? '').replace(/\s/g, ' ')).toContain(
      'The service now says finished, ₹499.00; the shop was told expired (Expired). Nothing was changed or announced.',
    );
    await live.page.getByText('The service contradicts the final state the shop was told').waitFor();
    expect(await fact('State at the service')).toMatch(/^expired · Expired/);

    await live.page.getByLabel('Language').selectOption('ru');
    onTestFinished(() =>
      live.page
        .getByLabel('Язык')
        .selectOption('en')
        .then(() => undefined),
    );
    const ru = live.page.locator('ol.timeline li').filter({ hasText: 'Сервис теперь сообщает finished' });
    await ru.waitFor();
    expect(((await ru.textContent()) ?? '').replace(/\s/g, ' ')).toContain(
      'магазину было сообщено expired (Истёк). Ничего не изменено, магазин не уведомлён.',
    );
    await live.page.getByText('Сервис противоречит окончательному состоянию').waitFor();
    await live.page.getByRole('button', { name: /^← / }).click();
  });

  it('says what a redelivery did when the ledger fails just after it, never that nothing was done', async () => {
    live.world.hookDown = true;
    onTestFinished(() => {
      live.world.hookDown = false;
      live.world.storeDown = false;
    });
    const { id } = await live.world.createPayment('P-REDELIVER');
    await live.page.getByLabel('Order id or payment id').fill('P-REDELIVER');
    await live.page.getByRole('button', { name: 'Find' }).click();
    await live.page.getByRole('button', { name: id, exact: true }).click();
    await live.page.getByText("The shop's hook has not taken the current state yet.").waitFor();
    live.world.hookDown = false;
    // The redelivery goes through; the ledger goes down as its answer comes back, before the page reads the payment again.
    await live.page.route(`**/api/payments/${id}/redeliver`, async (route) => {
      const response = await route.fetch();
      live.world.storeDown = true;
      await route.fulfill({ response });
    });
    const reread = live.page.waitForResponse((r) => r.url().endsWith(`/api/payments/${id}`) && r.request().method() === 'GET');
    await live.page.getByRole('button', { name: 'Redeliver announcement' }).click();
    expect((await reread).status()).toBe(503);
    await live.page.getByRole('status').getByText('Redeliver announcement: sent: the shop took it').waitFor();
    expect(await live.page.getByRole('status').textContent()).not.toContain('nothing was done');
    expect(live.world.announcements.filter((a) => a.paymentId === id)).toHaveLength(1);
  });

  it("words a re-check's outcome in Russian once the operator chooses Russian, as the button is", async () => {
    await openInRussian('P-RU');
    onTestFinished(() =>
      live.page
        .getByLabel('Язык')
        .selectOption('en')
        .then(() => undefined),
    );
    await live.page.getByRole('button', { name: 'Проверить сейчас' }).click();
    const status = live.page.getByRole('status');
    await status.getByText(/^Проверить сейчас: /).waitFor();
    expect(await status.textContent()).toMatch(/^\s*Проверить сейчас: без изменений \(pending\)\s*$/);
  });

  it('words in Russian why a re-check changed nothing when the service does not know the payment', async () => {
    await openInRussian('P-RU-GONE');
    live.world.serviceForgets = true;
    onTestFinished(async () => {
      live.world.serviceForgets = false;
      await live.page.getByLabel('Язык').selectOption('en');
    });
    await live.page.getByRole('button', { name: 'Проверить сейчас' }).click();
    const status = live.page.getByRole('status');
    // Whatever the words, they name the service's code.
    await status.getByText(/404/).waitFor();
    expect(await status.textContent()).toMatch(
      /^\s*платёжный сервис не знает этот платёж \(код 404\): ничего не изменено; проверьте, что PAYIN_BASE_URL и мерчант те же, что создали платёж\s*$/,
    );
  });

  it("fits a phone with a shop's hook failing on a long address, its error broken within the screen", async () => {
    live.world.hookDown = true;
    live.world.hookError =
      'request to https://shop.example.com/api/payin/webhook-receiver/orders?signature=0f3a9c1d5e7b2468ace0f3a9c1d5e7b2468ace0f3a9c failed, reason: connect ECONNREFUSED';
    onTestFinished(() => {
      live.world.hookDown = false;
    });
    const { id } = await live.world.createPayment('P-HOOK');
    const phone = await live.browser.newContext({ viewport: { width: 375, height: 667 }, isMobile: true, hasTouch: true, locale: 'en-GB' });
    await phone.addCookies(await live.context.cookies());
    const small = await phone.newPage();
    await small.goto(`${live.world.shopUrl}/payin/console`);
    await small.getByLabel('Order id or payment id').fill('P-HOOK');
    await small.getByRole('button', { name: 'Find' }).tap();
    await small.getByRole('button', { name: id, exact: true }).tap();
    await small.locator('ol.announcements li').filter({ hasText: 'signature=' }).first().waitFor();
    // A phone's browser widens its layout to take in what overflows, and zooms out: measured against the screen.
    expect(await small.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
    await phone.close();
  });
});
