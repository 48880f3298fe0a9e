/**
 * The console behind the shop's own sign-in (authorizeOperator over the shop's session, no token form), in
 * Chromium against the built proxy, its SQLite ledger and the sandbox (support/console-world.ts): the shop signs
 * its staff in and out, and the console follows.
 */
import { describe, expect, it } from 'vitest';
import { useConsoleWorld } from './support/use-console-world.js';

const live = useConsoleWorld({ signIn: 'shop', prepare: (world) => world.createPayment('S-1').then(() => {}) });

describe("the console behind the shop's own sign-in", () => {
  it('sends whoever the shop has not signed in to sign in there, on a page', async () => {
    await live.page.goto(`${live.world.shopUrl}/payin/console`);
    await live.page.getByText('Sign in to the shop as one of its operators, then open this page again.').waitFor();
  });

  it('offers no Sign out of its own, which could not sign the operator out of the shop', async () => {
    await live.page.goto(`${live.world.shopUrl}/staff/sign-in`);
    await live.page.goto(`${live.world.shopUrl}/payin/console`);
    await live.page.locator('tbody tr').first().waitFor();
    expect(await live.page.getByRole('button', { name: 'Sign out' }).count()).toBe(0);
  });

  it("sends the open console to the shop's sign-in once the shop has signed the operator out", async () => {
    const other = await live.page.context().newPage();
    await other.goto(`${live.world.shopUrl}/staff/sign-out`);
    await other.close();
    await live.page.locator('button[data-filter="paid"]').click();
    await live.page.getByText('Sign in to the shop as one of its operators, then open this page again.').waitFor();
  });
});
