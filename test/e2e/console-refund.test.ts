/**
 * A second payment refunded and marked so in the console, in Chromium against the built proxy, its SQLite ledger
 * and the sandbox (support/console-world.ts): the operator opens it from "Second payment: refund", marks it with
 * the refund's reference, sees who and when on its page, and back in the list it has left the refunds to do and is
 * found under "Second payment: refunded". An operator who presses Mark refunded on a page opened before a colleague
 * marked it is told who did, and sees it. On a 375 px phone, in Russian, the form fits and works. Screenshots at
 * 1280 and 375 px (written to CONSOLE_SHOTS_DIR, or the system's temp folder).
 */
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { useConsoleWorld } from './support/use-console-world.js';
import { act, pendingPaymentOf, waitFor } from './support/services.js';

const shots = process.env.CONSOLE_SHOTS_DIR ?? tmpdir();

const live = useConsoleWorld({ signedIn: true, context: { timezoneId: 'Asia/Kolkata' } });

/** The order paid by UPI, then by SBP (the shopper had switched): the SBP payment is the refund to do. */
async function paidTwice(orderId: string): Promise<{ first: string; second: string }> {
  const first = await live.world.createPayment(orderId, 'upi');
  const second = await live.world.createPayment(orderId, 'sbp');
  await pendingPaymentOf(live.world.sandboxUrl, orderId, 'upi');
  await act(live.world.sandboxUrl, first.id, 'pay');
  await waitFor('the first payment announced paid', () =>
    live.world.announcements.find((a) => a.paymentId === first.id && a.outcome === 'paid'),
  );
  await pendingPaymentOf(live.world.sandboxUrl, orderId, 'sbp');
  await act(live.world.sandboxUrl, second.id, 'pay');
  await waitFor('the second payment announced', () => live.world.announcements.find((a) => a.secondPaymentOf === first.id));
  return { first: first.id, second: second.id };
}

const count = (on: Page, filter: string) => on.locator(`button[data-filter="${filter}"] .count`).textContent();

/** The value beside a fact's name on the payment's page (Intl's no-break spaces read as spaces). */
const fact = async (on: Page, name: string) =>
  ((await on.locator(`dt:text-is("${name}") + dd`).textContent()) ?? '').trim().replace(/\s/g, ' ');

describe('a second payment refunded at the service', () => {
  it('is marked refunded with its reference, shows who and when, and leaves the refunds to do for the refunded filter', async () => {
    const { first, second } = await paidTwice('F-1');
    await live.page.goto(live.consoleUrl);
    await live.page.locator('button[data-filter="second"]').click();
    await expect.poll(() => count(live.page, 'second')).toBe('1');
    await expect.poll(() => count(live.page, 'refunded')).toBe('0');
    await live.page.getByRole('button', { name: second, exact: true }).click();
    await live.page.getByRole('heading', { name: `Payment ${second}` }).waitFor();
    await live.page.getByText(`Second payment of the order (first: ${first}): refund it.`).waitFor();

    await live.page.getByLabel('Refund reference (optional)').fill('re_3PqR7xE2E');
    await live.page.getByRole('button', { name: 'Mark refunded' }).click();
    await live.page.getByRole('status').getByText('Mark refunded: marked refunded (reference re_3PqR7xE2E)').waitFor();
    await live.page.getByText(`Second payment of the order (first: ${first}): refunded.`).waitFor();
    expect(await fact(live.page, 'Refund')).toMatch(
      /^marked refunded by console token, \d{1,2} \w{3} \d{4}, [\d:]{8} \S+ · reference re_3PqR7xE2E$/,
    );
    expect(await live.page.getByRole('button', { name: 'Mark refunded' }).count()).toBe(0);
    // The button it pressed is gone: the keyboard is on the payment's heading, not lost at the top of the page.
    expect(await live.page.evaluate(() => document.querySelector('payin-console')?.shadowRoot?.activeElement?.id)).toBe('payment-heading');
    await live.page.locator('ul.audit').getByText('console token: mark-refunded → marked refunded (reference re_3PqR7xE2E)').waitFor();
    await live.page.screenshot({ path: join(shots, 'console-refunded-1280.png'), fullPage: true });

    // Back in the list (read again after the action): off the refunds to do, found under refunded.
    await live.page.getByRole('button', { name: /Back to the list/ }).click();
    await expect.poll(() => count(live.page, 'second')).toBe('0');
    expect(await live.page.locator(`tr[data-payment="${second}"]`).count()).toBe(0);
    await live.page.locator('button[data-filter="refunded"]').click();
    await expect.poll(() => count(live.page, 'refunded')).toBe('1');
    const row = live.page.locator(`tr[data-payment="${second}"]`);
    await row.getByText('second payment: refunded').waitFor();
    expect(await row.getByText('second payment: refund it').count()).toBe(0);
    await live.page.screenshot({ path: join(shots, 'console-refunded-list-1280.png'), fullPage: true });
  });

  it('tells an operator whose page was open meanwhile who marked it, and shows their mark', async () => {
    const { second } = await paidTwice('F-2');
    const colleague = await live.context.newPage();
    for (const on of [live.page, colleague]) {
      await on.goto(live.consoleUrl);
      await on.getByLabel('Order id or payment id').fill('F-2');
      await on.getByRole('button', { name: 'Find' }).click();
      await on.getByRole('button', { name: second, exact: true }).click();
      await on.getByRole('button', { name: 'Mark refunded' }).waitFor();
    }
    await colleague.getByLabel('Refund reference (optional)').fill('re_colleague');
    await colleague.getByRole('button', { name: 'Mark refunded' }).click();
    await colleague.getByRole('status').getByText('Mark refunded: marked refunded (reference re_colleague)').waitFor();
    await colleague.close();

    // This page still offers the mark; pressing it is refused with who and when (in the operator's locale), and
    // the page then shows the mark.
    await live.page.getByRole('button', { name: 'Mark refunded' }).click();
    await live.page
      .getByRole('status')
      .getByText(/^already marked refunded by console token, .+, reference re_colleague: not marked again$/)
      .waitFor();
    expect(await fact(live.page, 'Refund')).toMatch(/^marked refunded by console token, .* · reference re_colleague$/);
    expect(await live.page.getByRole('button', { name: 'Mark refunded' }).count()).toBe(0);
  });

  it('fits a 375 px phone in Russian: the form, the mark, and the list without it', async () => {
    const { second } = await paidTwice('F-3');
    const phone = await live.browser.newContext({
      viewport: { width: 375, height: 812 },
      locale: 'ru-RU',
      timezoneId: 'Europe/Moscow',
      isMobile: true,
      hasTouch: true,
    });
    await phone.addCookies(await live.context.cookies());
    const small = await phone.newPage();
    await small.goto(live.consoleUrl);
    await small.getByRole('heading', { name: 'Платежи' }).waitFor();
    await small.locator('button[data-filter="second"]').tap();
    await small.getByRole('button', { name: second, exact: true }).tap();
    await small.getByRole('button', { name: 'Отметить возврат' }).waitFor();
    await small.screenshot({ path: join(shots, 'console-refund-form-375-ru.png'), fullPage: true });
    // Against the screen, not innerWidth: a phone's browser widens its layout to take in what overflows.
    expect(await small.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);

    await small.getByLabel('Номер возврата (необязательно)').fill('re_phone_1');
    await small.getByRole('button', { name: 'Отметить возврат' }).tap();
    await small.getByText(/Второй платёж заказа \(первый: .*\): возвращён\./).waitFor();
    expect(await fact(small, 'Возврат')).toMatch(/^отмечен оператором console token, .* · номер возврата re_phone_1$/);
    await small.screenshot({ path: join(shots, 'console-refunded-375-ru.png'), fullPage: true });
    expect(await small.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);

    await small.getByRole('button', { name: /Назад к списку/ }).tap();
    await expect.poll(() => count(small, 'second')).toBe('0');
    await small.locator('button[data-filter="refunded"]').tap();
    await small.locator(`tr[data-payment="${second}"]`).getByText('второй платёж: возвращён').waitFor();
    expect(await small.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
    await phone.close();
  });
});
