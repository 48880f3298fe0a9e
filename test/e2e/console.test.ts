/**
 * The operator's console in Chromium, against the built proxy, its SQLite ledger and the sandbox
 * (support/console-world.ts): signing in, finding a payment by its order, its timeline, re-checking a payment
 * the sandbox paid while its callbacks were lost, redelivering an announcement once the shop's hook is back, a
 * second payment listed as a refund to do, the CSV export read back, strangers and other sites refused, axe, and
 * screenshots at 1280 and 375 px (written to CONSOLE_SHOTS_DIR, or the system's temp folder).
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it, onTestFinished } from 'vitest';
import { CONSOLE_TOKEN } from './support/console-world.js';
import { useConsoleWorld } from './support/use-console-world.js';
import { act, sandboxPayments, waitFor } from './support/services.js';

const shots = process.env.CONSOLE_SHOTS_DIR ?? tmpdir();

const live = useConsoleWorld({ context: { timezoneId: 'Asia/Kolkata', acceptDownloads: true } });

async function search(orderId: string) {
  await live.page.getByLabel('Order id or payment id').fill(orderId);
  await live.page.getByRole('button', { name: 'Find' }).click();
}

async function openPayment(id: string) {
  await live.page.getByRole('button', { name: id, exact: true }).click();
  await live.page.getByRole('heading', { name: `Payment ${id}` }).waitFor();
}

async function sandboxState(id: string, state: string) {
  await waitFor(`payment ${id} ${state} at the sandbox`, async () =>
    (await sandboxPayments(live.world.sandboxUrl)).find((p) => p.id === id && p.state === state),
  );
}

describe('the operator console', () => {
  it('tells a stranger nothing: 401 alike for a payment that exists and one that does not', async () => {
    const { id } = await live.world.createPayment('S-1');
    const real = await fetch(`${live.consoleUrl}/api/payments/${id}`);
    const made = await fetch(`${live.consoleUrl}/api/payments/no-such`);
    expect([real.status, made.status]).toEqual([401, 401]);
    expect(await real.text()).toBe(await made.text());
    expect(real.headers.get('cache-control')).toBe('no-store');
  });

  it('signs the operator in with the console token, after refusing a wrong one', async () => {
    await live.page.goto(live.consoleUrl);
    await live.page.getByLabel(/Console token/).fill('not-the-token');
    await live.page.getByRole('button', { name: /Sign in/ }).click();
    await live.page.getByText('That is not the console token.').waitFor();
    await live.page.getByLabel(/Console token/).fill(CONSOLE_TOKEN);
    await live.page.getByRole('button', { name: /Sign in/ }).click();
    await live.page.getByRole('heading', { name: 'Payments' }).waitFor();
    expect(live.page.url()).toBe(live.consoleUrl);
    const [session] = (await live.context.cookies()).filter((c) => c.name === 'payin_console');
    expect(session).toMatchObject({ httpOnly: true, sameSite: 'Strict', path: '/payin/console' });
    expect(session!.value).not.toContain(CONSOLE_TOKEN);
  });

  it('re-checks a payment the sandbox paid while its callbacks were lost: it turns paid and the shop hears paid once', async () => {
    live.world.dropCallbacks = true;
    onTestFinished(() => {
      live.world.dropCallbacks = false;
    });
    const { id } = await live.world.createPayment('C-100');
    await sandboxState(id, 'pending');
    await act(live.world.sandboxUrl, id, 'pay');
    await sandboxState(id, 'finished');

    await search('C-100');
    await live.page.locator(`tr[data-payment="${id}"]`).getByText('Waiting').waitFor();
    await openPayment(id);
    // What the ledger knows came from the create and any status call (whether either saw "pending" depends on
    // when the sandbox assigned the requisites), never from a callback: all of them were lost.
    await live.page.locator('ol.timeline li').filter({ hasText: 'from create' }).first().waitFor();
    expect(await live.page.locator('ol.timeline li').filter({ hasText: 'from a callback' }).count()).toBe(0);
    await live.page.getByRole('button', { name: 'Re-check now' }).click();
    await live.page.getByRole('status').getByText('Re-check now: now finished').waitFor();
    await live.page.locator('ol.timeline li').filter({ hasText: 'State finished (Paid), from a re-check' }).waitFor();
    await live.page.locator('ol.announcements li').filter({ hasText: 'Announcement of finished: taken by the shop' }).waitFor();
    await live.page.getByRole('button', { name: 'Re-check now' }).click();
    await live.page.getByRole('status').getByText('Re-check now: unchanged (finished)').waitFor();
    expect(live.world.announcements.filter((a) => a.paymentId === id && a.outcome === 'paid')).toHaveLength(1);
    await live.page.locator('ul.audit li').filter({ hasText: 'console token: recheck → now finished' }).waitFor();
  });

  it("lists a failing announcement and redelivers it once the shop's hook is back", async () => {
    live.world.hookDown = true;
    onTestFinished(() => {
      live.world.hookDown = false;
    });
    const { id } = await live.world.createPayment('C-200');
    await live.page.getByRole('button', { name: /Back to the list/ }).click();
    await live.page.getByRole('button', { name: 'Show all' }).click();
    await live.page.locator('button[data-filter="failing"]').click();
    await live.page.locator(`tr[data-payment="${id}"]`).waitFor();
    await openPayment(id);
    await live.page.getByText("The shop's hook has not taken the current state yet.").waitFor();
    await live.page.locator('ol.announcements li').filter({ hasText: 'not taken' }).first().waitFor();
    live.world.hookDown = false;
    await live.page.getByRole('button', { name: 'Redeliver announcement' }).click();
    await live.page.getByRole('status').getByText('Redeliver announcement: sent: the shop took it').waitFor();
    expect(live.world.announcements.some((a) => a.paymentId === id)).toBe(true);
    await live.page.getByText('The shop receives the same state again').waitFor();
    await shot('console-payment-1280.png');
  });

  it('lists the second payment of a paid order as a refund to do', async () => {
    const first = await live.world.createPayment('C-300', 'upi');
    const second = await live.world.createPayment('C-300', 'sbp');
    for (const { id } of [first, second]) {
      await sandboxState(id, 'pending');
      await act(live.world.sandboxUrl, id, 'pay');
    }
    await waitFor('the second payment announced', () => live.world.announcements.find((a) => a.secondPaymentOf === first.id));
    await live.page.getByRole('button', { name: /Back to the list/ }).click();
    await live.page.locator('button[data-filter="second"]').click();
    const row = live.page.locator(`tr[data-payment="${second.id}"]`);
    await row.getByText('second payment: refund it').waitFor();
    expect(await live.page.locator('tbody tr').count()).toBe(1);
    await expect.poll(() => live.page.locator('button[data-filter="second"] .count').textContent()).toBe('1');
  });

  it('exports the current filter as CSV, and the file reads back', async () => {
    await live.page.locator('button[data-filter="paid"]').click();
    await live.page.locator('tbody tr').first().waitFor();
    const [download] = await Promise.all([
      live.page.waitForEvent('download'),
      live.page.getByRole('button', { name: 'Export CSV' }).click(),
    ]);
    const csv = readFileSync((await download.path())!, 'utf8');
    const lines = csv.trim().split('\r\n');
    expect(lines[0]).toBe(
      'id,orderId,method,state,outcome,amount,currency,priced,createdAt,expiresAt,secondPaymentOf,pricedCurrency,refundedAt,refundedBy,refundReference,contradictedState,resolvedAt,resolvedBy,resolutionNote',
    );
    expect(lines.some((l) => l.includes(',C-100,upi,finished,paid,499.00,INR,499.00,'))).toBe(true);
    expect(lines.filter((l) => l.includes(',C-300,'))).toHaveLength(2);
    expect(lines.some((l) => l.includes('C-200'))).toBe(false);
    await shot('console-list-1280.png');
  });

  it('refuses an action sent from another site, even with the operator signed in', async () => {
    const { id } = await live.world.createPayment('X-1');
    const other = await live.context.newPage();
    // localhost and 127.0.0.1 are different sites to the browser.
    await other.goto(live.world.shopUrl.replace('127.0.0.1', 'localhost'));
    const target = `${live.consoleUrl}/api/payments/${id}/recheck`;
    await other.evaluate(async (url) => {
      await fetch(url, { method: 'POST', mode: 'no-cors', credentials: 'include' }).catch(() => undefined);
    }, target);
    await other.close();
    const cookie = (await live.context.cookies()).map((c) => `${c.name}=${c.value}`).join('; ');
    const forged = await fetch(target, { method: 'POST', headers: { cookie, 'sec-fetch-site': 'cross-site', 'x-payin-csrf': 'x' } });
    expect(forged.status).toBe(403);
    const detail = await fetch(`${live.consoleUrl}/api/payments/${id}`, { headers: { cookie } });
    expect(((await detail.json()) as { audit: unknown[] }).audit).toEqual([]);
  });

  it('passes axe on the list and on a payment, and has no CSP violation', async () => {
    const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
    const axeContext = await live.browser.newContext({ viewport: { width: 1280, height: 900 }, bypassCSP: true });
    await axeContext.addCookies(await live.context.cookies());
    const axePage = await axeContext.newPage();
    await axePage.goto(live.consoleUrl);
    await axePage.locator('tbody tr').first().waitFor();
    await axePage.addScriptTag({ content: axeSource });
    const run = () =>
      axePage.evaluate(async () => {
        const result = await (
          window as unknown as { axe: { run(): Promise<{ violations: { id: string; nodes: unknown[] }[] }> } }
        ).axe.run();
        return result.violations.map((v) => `${v.id} (${v.nodes.length})`);
      });
    expect(await run()).toEqual([]);
    await axePage.locator('tbody tr').first().getByRole('button').click();
    await axePage.locator('ol.timeline').waitFor();
    expect(await run()).toEqual([]);
    await axeContext.close();

    // The login form, as a stranger meets it.
    const strangerContext = await live.browser.newContext({ viewport: { width: 1280, height: 900 }, bypassCSP: true });
    const login = await strangerContext.newPage();
    await login.goto(live.consoleUrl);
    await login.getByLabel(/Console token/).waitFor();
    await login.addScriptTag({ content: axeSource });
    const loginViolations = await login.evaluate(async () => {
      const result = await (window as unknown as { axe: { run(): Promise<{ violations: { id: string }[] }> } }).axe.run();
      return result.violations.map((v) => v.id);
    });
    expect(loginViolations).toEqual([]);
    await strangerContext.close();

    const violations: string[] = [];
    const strict = await live.context.newPage();
    strict.on('console', (message) => {
      if (/Content Security Policy/i.test(message.text())) violations.push(message.text());
    });
    await strict.goto(live.consoleUrl);
    await strict.locator('tbody tr').first().waitFor();
    expect(violations).toEqual([]);
    await strict.close();
  });

  it('says when the ledger cannot be read, keeping the filter and rows it shows, and stops saying it once it can', async () => {
    await live.page.goto(live.consoleUrl);
    await live.page.locator('tbody tr').first().waitFor();
    const rows = await live.page.locator('tbody tr').count();
    live.world.storeDown = true;
    try {
      await live.page.getByRole('button', { name: /^Paid late/ }).click();
      await live.page.getByText('the ledger could not be read or written just now').waitFor();
      // The rows on screen are still those of the filter marked as chosen, not the last list under a new name.
      expect(await live.page.getByRole('button', { name: /^All/ }).getAttribute('aria-pressed')).toBe('true');
      expect(await live.page.getByRole('button', { name: /^Paid late/ }).getAttribute('aria-pressed')).toBe('false');
      expect(await live.page.locator('tbody tr').count()).toBe(rows);
    } finally {
      live.world.storeDown = false;
    }
    await live.page.getByRole('button', { name: /^Paid late/ }).click();
    await waitFor('the Paid late filter chosen', async () =>
      (await live.page.getByRole('button', { name: /^Paid late/ }).getAttribute('aria-pressed')) === 'true' ? true : undefined,
    );
    expect(await live.page.getByText('the ledger could not be read or written just now').count()).toBe(0);
  });

  it('fits a phone at 375 px, in Russian', async () => {
    const phone = await live.browser.newContext({
      viewport: { width: 375, height: 812 },
      locale: 'ru-RU',
      timezoneId: 'Europe/Moscow',
      isMobile: true,
    });
    await phone.addCookies(await live.context.cookies());
    const small = await phone.newPage();
    await small.goto(live.consoleUrl);
    await small.getByRole('heading', { name: 'Платежи' }).waitFor();
    await small.locator('tbody tr').first().waitFor();
    // Against the screen, not innerWidth: a phone's browser widens its layout to take in what overflows.
    expect(await small.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
    await small.screenshot({ path: join(shots, 'console-list-375-ru.png'), fullPage: true });
    await phone.close();
  });
});

async function shot(name: string) {
  await live.page.screenshot({ path: join(shots, name), fullPage: true });
}
