/**
 * The console's list as an operator works through a long one, in Chromium against the built proxy, its SQLite
 * ledger and the sandbox (support/console-world.ts): more than a page of payments, some paid and some failed,
 * and answers that arrive late, as over a slow connection or a busy ledger.
 */
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { useConsoleWorld } from './support/use-console-world.js';
import { act, pendingPaymentOf, sandboxPayments, waitFor } from './support/services.js';

/** More than the list's page of 50: every fifth one failed at the service, the rest waiting. */
const PAYMENTS = 60;

/** The payments the sandbox failed: one in five. */
let failing: string[] = [];

const live = useConsoleWorld({
  signedIn: true,
  context: { timezoneId: 'Asia/Kolkata' },
  prepare: async (world) => {
    const ids: string[] = [];
    for (let i = 0; i < PAYMENTS; i += 10) {
      const made = await Promise.all(Array.from({ length: 10 }, (_, k) => world.createPayment(`L-${i + k}`)));
      ids.push(...made.map((p) => p.id));
    }
    failing = ids.filter((_, i) => i % 5 === 0);
    await waitFor('the sandbox to assign requisites', async () => {
      const pending = (await sandboxPayments(world.sandboxUrl)).filter((p) => failing.includes(p.id) && p.state === 'pending');
      return pending.length === failing.length ? true : undefined;
    });
    for (const id of failing) await act(world.sandboxUrl, id, 'fail');
  },
});
beforeAll(async () => {
  await waitFor('the failed payments listed as such', async () => {
    await live.page.locator('button[data-filter="failed"]').click();
    return (await live.page.locator('button[data-filter="failed"] .count').textContent()) === String(failing.length) ? true : undefined;
  });
});

describe('the console list', () => {
  it("drops a 'Show more' answer that comes after the operator chose another filter, never mixing it into that list", async () => {
    await live.page.locator('button[data-filter="all"]').click();
    await live.page.getByRole('button', { name: 'Show more' }).waitFor();
    // The next page of All is held back, as a slow answer is, while the operator moves on to Failed.
    await holdAnswers(live.page, 'cursor=');
    await live.page.getByRole('button', { name: 'Show more' }).click();
    await live.page.waitForFunction(() => (window as unknown as Held).__held.asked > 0);
    await live.page.locator('button[data-filter="failed"]').click();
    await waitFor('the Failed list shown', async () =>
      (await live.page.locator('button[data-filter="failed"]').getAttribute('aria-pressed')) === 'true' ? true : undefined,
    );
    await releaseAnswers(live.page);
    expect(await live.page.locator('button[data-filter="failed"]').getAttribute('aria-pressed')).toBe('true');
    const outcomes = await live.page.locator('tbody tr td[data-label="Outcome"]').allInnerTexts();
    expect(outcomes).toHaveLength(PAYMENTS / 5);
    expect(new Set(outcomes)).toEqual(new Set(['Failed']));
  });

  it('shows the list as it is after the operator acted on a payment: its row and the counts follow a re-check', async () => {
    live.world.dropCallbacks = true;
    onTestFinished(() => {
      live.world.dropCallbacks = false;
    });
    const { id } = await live.world.createPayment('L-lost');
    await pendingPaymentOf(live.world.sandboxUrl, 'L-lost');
    await act(live.world.sandboxUrl, id, 'pay');
    await live.page.locator('button[data-filter="open"]').click();
    const row = live.page.locator(`tr[data-payment="${id}"]`);
    await row.getByText('Waiting').waitFor();
    const paidBefore = Number(await live.page.locator('button[data-filter="paid"] .count').textContent());
    await row.getByRole('button', { name: id }).click();
    await live.page.getByRole('button', { name: 'Re-check now' }).click();
    await live.page.getByRole('status').getByText('Re-check now: now finished').waitFor();
    await live.page.getByRole('button', { name: /Back to the list/ }).click();
    await live.page.locator('tbody tr').first().waitFor();
    // Paid now: no longer an open payment, and counted as paid.
    await expect.poll(() => live.page.locator('button[data-filter="paid"] .count').textContent()).toBe(String(paidBefore + 1));
    expect(await live.page.locator('button[data-filter="open"]').getAttribute('aria-pressed')).toBe('true');
    expect(await row.count()).toBe(0);
  });

  it('fits a long order id in Devanagari or Cyrillic on a desktop and on a phone, the outcome in sight', async () => {
    const long = [`आदेश-${'बहुतलंबाऑर्डरसंख्या'.repeat(6)}`, `ЗАКАЗ-${'оченьдлинныйномерзаказа'.repeat(5)}`];
    for (const orderId of long) await live.world.createPayment(orderId.slice(0, 128));
    await live.page.locator('button[data-filter="all"]').click();
    await live.page.locator('tbody tr td[data-label="Order"]').filter({ hasText: 'ЗАКАЗ-' }).waitFor();
    const desktop = await live.page.evaluate(() => ({
      page: document.documentElement.scrollWidth,
      table: document.querySelector('payin-console')!.shadowRoot!.querySelector('table')!.getBoundingClientRect().right,
    }));
    expect(desktop.page).toBeLessThanOrEqual(1280);
    expect(desktop.table).toBeLessThanOrEqual(1280);

    // A phone's browser widens its layout to take in what overflows, and zooms out: measured against the screen.
    const phone = await live.browser.newContext({ viewport: { width: 375, height: 667 }, isMobile: true, hasTouch: true, locale: 'en-GB' });
    await phone.addCookies(await live.context.cookies());
    const small = await phone.newPage();
    await small.goto(`${live.world.shopUrl}/payin/console`);
    await small.locator('tbody tr td[data-label="Order"]').filter({ hasText: 'ЗАКАЗ-' }).waitFor();
    expect(await small.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
    await small.locator('tbody tr').first().getByRole('button').tap();
    await small.locator('#payment-heading').waitFor();
    await phone.close();
  });

  it('opens the payment chosen last when the one chosen before answers late, never the other under its name', async () => {
    await live.page.locator('button[data-filter="all"]').click();
    await live.page.locator('tbody tr').nth(1).waitFor();
    const [first, second] = await Promise.all([0, 1].map((i) => live.page.locator('tbody tr').nth(i).getAttribute('data-payment')));
    // The first one's page is slow to come; the operator chooses the second meanwhile.
    await holdAnswers(live.page, `/api/payments/${first}`);
    await live.page.getByRole('button', { name: first!, exact: true }).click();
    await live.page.waitForFunction(() => (window as unknown as Held).__held.asked > 0);
    await live.page.getByRole('button', { name: second!, exact: true }).click();
    await live.page.getByRole('heading', { name: `Payment ${second}` }).waitFor();
    await releaseAnswers(live.page);
    expect(await live.page.locator('#payment-heading').textContent()).toBe(`Payment ${second}`);
    await live.page.getByRole('button', { name: /Back to the list/ }).click();
  });

  it("tells a screen reader what a filter or a search found, in the page's live region", async () => {
    await live.page.locator('button[data-filter="failed"]').click();
    await live.page
      .getByRole('status')
      .getByText(`${PAYMENTS / 5} of ${PAYMENTS / 5} payments shown`)
      .waitFor();
    await live.page.locator('button[data-filter="all"]').click();
    const all = await live.page.locator('button[data-filter="all"] .count').textContent();
    await live.page.getByRole('status').getByText(`50 of ${all} payments shown`).waitFor();
    await live.page.getByLabel('Order id or payment id').fill('L-1');
    await live.page.getByRole('button', { name: 'Find' }).click();
    await live.page.getByRole('status').getByText('1 payment shown').waitFor();
    await live.page.getByLabel('Order id or payment id').fill('no-such-order');
    await live.page.getByRole('button', { name: 'Find' }).click();
    await live.page.getByRole('status').getByText('No payments here.').waitFor();
    await live.page.getByRole('button', { name: 'Show all' }).click();
    await live.page.getByRole('status').getByText(`50 of ${all} payments shown`).waitFor();
  });

  it("names its table by the filter and the search, for a screen reader's list of tables", async () => {
    await live.page.locator('button[data-filter="failed"]').click();
    await live.page.getByRole('table', { name: 'Payments: Failed' }).waitFor();
    // L-10 is one of the failed ones (every fifth).
    await live.page.getByLabel('Order id or payment id').fill('L-10');
    await live.page.getByRole('button', { name: 'Find' }).click();
    await live.page.getByRole('table', { name: 'Payments: Failed, search “L-10”' }).waitFor();
    await live.page.getByRole('button', { name: 'Show all' }).click();
    await live.page.locator('button[data-filter="all"]').click();
    await live.page.getByRole('table', { name: 'Payments: All' }).waitFor();
  });

  it('shows which filter is chosen in forced colors (Windows high contrast), where its fill is gone', async () => {
    const context = await live.browser.newContext({ viewport: { width: 1280, height: 900 }, forcedColors: 'active' });
    onTestFinished(() => context.close());
    await context.addCookies(await live.context.cookies());
    const page = await context.newPage();
    await page.goto(live.consoleUrl);
    await page.locator('tbody tr').first().waitFor();
    const look = (filter: string) =>
      page.locator(`button[data-filter="${filter}"]`).evaluate((button) => {
        const style = getComputedStyle(button);
        return `${style.backgroundColor} ${style.color} ${style.borderColor} ${style.borderWidth} ${style.outlineStyle}`;
      });
    const chosen = await look('all');
    expect(chosen, 'the chosen filter looks unlike the others').not.toBe(await look('open'));
  });
});

interface Held {
  __held: { asked: number; read: number; release(): void };
}

/** Holds back the page's answers whose URL contains `part` (a slow network), counting those asked and those read. */
async function holdAnswers(on: Page, part: string): Promise<void> {
  await on.evaluate((part) => {
    const original = window.fetch;
    let release = () => {};
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    const held = { asked: 0, read: 0, release };
    (window as unknown as Held).__held = held;
    window.fetch = async (input, init) => {
      if (!String(input).includes(part)) return original(input, init);
      held.asked++;
      await gate;
      const response = await original(input, init);
      const json = response.json.bind(response);
      // Counted a task after the page has its JSON, once what it does with it (in microtasks) is done.
      response.json = () => json().finally(() => setTimeout(() => held.read++, 0));
      return response;
    };
  }, part);
}

/** Lets the held answers through and waits until the page has read each and drawn what it made of them. */
async function releaseAnswers(on: Page): Promise<void> {
  await on.evaluate(() => (window as unknown as Held).__held.release());
  await on.waitForFunction(() => {
    const held = (window as unknown as Held).__held;
    return held.read === held.asked;
  });
  await on.evaluate(() => document.querySelector('payin-console')!.updateComplete);
}
