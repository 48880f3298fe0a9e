/**
 * The console by keyboard alone, in Chromium against the built proxy, its SQLite ledger and the sandbox
 * (support/console-world.ts): after each action the keyboard is where the operator can go on from (the control
 * pressed, the payment left, the first of the rows just shown), never back at the top of the page, where a
 * screen reader starts reading the page from its heading again.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { useConsoleWorld } from './support/use-console-world.js';

/** The payment at the top of the list, which the operator opens. */
let newest = '';

const live = useConsoleWorld({
  signedIn: true,
  // More than the list's page of 50.
  prepare: async (world) => {
    for (let i = 0; i < 55; i += 11) await Promise.all(Array.from({ length: 11 }, (_, k) => world.createPayment(`K-${i + k}`)));
  },
});
beforeAll(async () => {
  newest = (await live.page.locator('tbody tr').first().getAttribute('data-payment'))!;
});

/** What has the keyboard: the focused element inside the console's shadow root, by its role's words. */
function focused(): Promise<string> {
  return live.page.evaluate(() => {
    let active = document.activeElement;
    while (active?.shadowRoot?.activeElement) active = active.shadowRoot.activeElement;
    return active ? `${active.tagName.toLowerCase()} ${active.textContent?.trim() ?? ''}` : 'nothing';
  });
}

/** Presses Tab until `name` has the keyboard (at most 200 times), as an operator tabs to a control. */
async function tabTo(name: string): Promise<void> {
  for (let i = 0; i < 200; i++) {
    if ((await focused()).endsWith(name)) return;
    await live.page.keyboard.press('Tab');
  }
  throw new Error(`${name} never took the keyboard`);
}

describe('the console by keyboard', () => {
  it('keeps the keyboard on Re-check now and Redeliver announcement once they are done', async () => {
    await tabTo(newest);
    await live.page.keyboard.press('Enter');
    await live.page.getByRole('heading', { name: `Payment ${newest}` }).waitFor();
    expect(await focused()).toBe(`h2 Payment ${newest}`);
    await tabTo('Re-check now');
    await live.page.keyboard.press('Enter');
    await live.page.getByRole('status').getByText('Re-check now: unchanged').waitFor();
    expect(await focused()).toBe('button Re-check now');
    await live.page.keyboard.press('Tab');
    await live.page.keyboard.press('Enter');
    await live.page.getByRole('status').getByText('Redeliver announcement: sent').waitFor();
    expect(await focused()).toBe('button Redeliver announcement');
  });

  it('goes back to the payment it left, in the list read again', async () => {
    await tabTo('← Back to the list');
    await live.page.keyboard.press('Enter');
    await live.page.locator('tbody tr').first().waitFor();
    // The list is read again after the actions; the keyboard is on the same payment in it once it has come.
    await expect.poll(focused).toBe(`button ${newest}`);
    await live.page.waitForLoadState('networkidle');
    expect(await focused()).toBe(`button ${newest}`);
  });

  it("puts the keyboard on the first of the rows 'Show more' added", async () => {
    await tabTo('Show more');
    await live.page.keyboard.press('Enter');
    const first = (await live.page.locator('tbody tr').nth(50).getAttribute('data-payment'))!;
    await expect.poll(focused).toBe(`button ${first}`);
  });
});
