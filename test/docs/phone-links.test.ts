/**
 * docs/phone-links.md tells a shop's developer what the sandbox's /phone page offers once a checkout link opens
 * it: the page is rendered here, for a payment whose shop gave a return URL, and every control on it must be named
 * in the page's section on it, with where "Back to the shop" leads.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { BASE, createPayment, setup } from '../sandbox/helpers.js';

const page = readFileSync(new URL('../../docs/phone-links.md', import.meta.url), 'utf8');
const section = page.slice(page.indexOf('## The sandbox playing the phone'));

describe('docs/phone-links.md', () => {
  it("names every control of the sandbox's phone page, and the return URL that Back opens", async () => {
    const { sandbox, clock } = setup({ requisitesDelayMs: 0, sbpShape: 'c2b' });
    const id = await createPayment(sandbox, {
      orderId: 'D-1',
      method: 'sbp',
      currency: 'RUB',
      amount: '450.00',
      successUri: 'https://shop.example/paid',
      failUri: 'https://shop.example/failed',
    });
    await clock.advance(1);
    const link = sandbox.payment(id)!.media[0]!.replace('https://', 'bank100000000004://');
    const html = await (await sandbox(new Request(`${BASE}/phone?link=${encodeURIComponent(link)}`))).text();
    // "Pay 450.00 RUB" is the Pay button; the controls by their first word or their whole label.
    const controls = [...html.matchAll(/<(?:button|a)\b[^>]*>([^<]+)<\/(?:button|a)>/g)].map(([, label]) =>
      label!.startsWith('Pay ') ? 'Pay' : label!,
    );
    expect(controls).toEqual(['Pay', 'Cancel', 'Back to the shop']);
    expect(controls.filter((label) => !section.includes(label))).toEqual([]);
    expect(section).toContain('successUri');
    expect(section).toContain('failUri');
  });
});
