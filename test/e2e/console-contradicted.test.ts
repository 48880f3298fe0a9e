/**
 * Payments the service contradicts, found in the console, in Chromium against the built proxy, its SQLite ledger and
 * the sandbox (support/console-world.ts): one the sandbox expired whose money then came (the service says
 * finished), one it paid that the service then says is disputed. Neither changes for the shop; both are counted
 * under "Service disagrees", where the operator opens one, marks it resolved with a note once it was dealt with at
 * the service, and sees it leave the work left for "Service disagreed: resolved". Screenshots at 1280 px (written
 * to CONSOLE_SHOTS_DIR, or the system's temp folder).
 */
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useConsoleWorld } from './support/use-console-world.js';
import { act, pendingPaymentOf, waitFor } from './support/services.js';

const shots = process.env.CONSOLE_SHOTS_DIR ?? tmpdir();

const live = useConsoleWorld({ signedIn: true, context: { timezoneId: 'Asia/Kolkata' } });

/** Creates a payment of `orderId`, has the sandbox `action` it (expire, pay) and waits for the shop to hear `state`. */
async function finalAt(orderId: string, action: string, state: string): Promise<string> {
  const { id } = await live.world.createPayment(orderId);
  await pendingPaymentOf(live.world.sandboxUrl, orderId);
  await act(live.world.sandboxUrl, id, action);
  await waitFor(`the shop told ${state}`, () => live.world.announcements.some((a) => a.paymentId === id && a.state === state) || undefined);
  return id;
}

const count = (filter: string) => live.page.locator(`button[data-filter="${filter}"] .count`).textContent();

describe('payments the service contradicts', () => {
  it('are listed under Service disagrees until an operator marks one resolved, which moves it to the resolved list', async () => {
    const late = await finalAt('C-LATE', 'expire', 'expired');
    const disputed = await finalAt('C-DISPUTE', 'pay', 'finished');
    expect(await live.world.contradict(late, 'finished')).toBe(200);
    expect(await live.world.contradict(disputed, 'dispute')).toBe(200);
    // Nothing was announced for either: what the shop was told stands.
    expect(live.world.announcements.filter((a) => [late, disputed].includes(a.paymentId)).map((a) => a.state)).toEqual([
      'pending',
      'expired',
      'pending',
      'finished',
    ]);

    await live.page.goto(live.consoleUrl);
    await live.page.locator('button[data-filter="contradicted"]').click();
    await expect.poll(() => count('contradicted')).toBe('2');
    await expect.poll(() => count('resolved')).toBe('0');
    expect(await live.page.locator('button[data-filter="contradicted"]').textContent()).toContain('Service disagrees');
    for (const id of [late, disputed]) {
      await live.page.locator(`tr[data-payment="${id}"]`).getByText('the service disagrees: look into it').waitFor();
    }
    await live.page.screenshot({ path: join(shots, 'console-contradicted-1280.png'), fullPage: true });

    await live.page.getByRole('button', { name: late, exact: true }).click();
    await live.page.getByRole('heading', { name: `Payment ${late}` }).waitFor();
    await live.page.getByText('The service contradicts the final state the shop was told').waitFor();
    await live.page.getByLabel('What was done (optional)').fill('refunded at the service, re_late_1');
    await live.page.getByRole('button', { name: 'Mark resolved' }).click();
    await live.page.getByRole('status').getByText('Mark resolved: marked resolved (refunded at the service, re_late_1)').waitFor();
    await live.page.getByText('The service contradicted the final state the shop was told (see the timeline): resolved.').waitFor();
    expect(((await live.page.locator('dt:text-is("Resolved") + dd').textContent()) ?? '').replace(/\s/g, ' ')).toMatch(
      /^marked resolved by console token, .+ · refunded at the service, re_late_1$/,
    );
    expect(await live.page.getByRole('button', { name: 'Mark resolved' }).count()).toBe(0);
    await live.page
      .locator('ul.audit')
      .getByText('console token: mark-resolved → marked resolved (refunded at the service, re_late_1)')
      .waitFor();

    // Back in the list (read again after the action): one left to look into, one resolved.
    await live.page.getByRole('button', { name: /Back to the list/ }).click();
    await expect.poll(() => count('contradicted')).toBe('1');
    expect(await live.page.locator(`tr[data-payment="${late}"]`).count()).toBe(0);
    await live.page.locator('button[data-filter="resolved"]').click();
    await expect.poll(() => count('resolved')).toBe('1');
    await live.page.locator(`tr[data-payment="${late}"]`).getByText('the service disagreed: resolved').waitFor();

    await live.page.getByLabel('Language').selectOption('ru');
    await live.page.locator('button[data-filter="contradicted"]').getByText('Сервис возражает').waitFor();
    await live.page.locator(`tr[data-payment="${late}"]`).getByText('сервис возражал: решено').waitFor();
    await live.page.getByLabel('Язык').selectOption('en');
  });
});
