/**
 * A shop's price is charged as written or refused, never rounded, against the real sandbox: a price with more
 * decimals than the currency has, or more digits than a double and a count of paise hold exactly, is the shop's
 * resolveOrder answering wrongly (500, and nothing is created), where it used to be charged rounded (499.9999999999
 * as 500.00) or paid a paisa short (99999999999999.98 of 99999999999999.99).
 */
import { afterEach, describe, expect, it } from 'vitest';
import { capturingLogger } from './harness.js';
import { eventually, startLive, type Live } from './sandbox-harness.js';

let live: Live | undefined;
afterEach(async () => {
  await live?.close();
  live = undefined;
});

describe("the shop's price on its way to the service", () => {
  it.each([
    ['a number with decimals the rupee does not have', 499.9999999999],
    ['a 14-digit sum, whose paise a double cannot tell apart', '99999999999999.99'],
    ['a 14-digit sum as a number', 12345678901234.5],
  ])('refuses %s: nothing is charged, and the log names the price', async (_what, amount) => {
    const { lines, logger } = capturingLogger();
    live = await startLive({ resolveOrder: () => ({ amount, currency: 'INR' }), logger });
    const created = await live.create('A-1', 'upi');
    expect(created.status).toBe(500);
    expect(live.sandbox.payments()).toEqual([]);
    expect(lines.join('\n')).toContain(`amount ${JSON.stringify(JSON.stringify(amount)).slice(1, -1)}`);
  });

  it('refuses a yen price with decimals, which the page showed as another sum, and charges a whole one as written', async () => {
    const { lines, logger } = capturingLogger();
    const yen = (amount: string) => () => ({ amount, currency: 'JPY' });
    live = await startLive({ methods: ['c2c'], resolveOrder: yen('499.50'), logger });
    // Intl's yen has no decimals: ¥499.50 was created, and the page showed ¥500.
    expect(new Intl.NumberFormat('en', { style: 'currency', currency: 'JPY' }).format(499.5)).toBe('¥500');
    const refused = await live.create('A-1', 'c2c');
    expect(refused.status).toBe(500);
    expect(live.sandbox.payments()).toEqual([]);
    expect(lines.join('\n')).toMatch(/none that its currency lacks/);
    await live.restart({ resolveOrder: yen('499') });
    const created = await live.create('A-2', 'c2c');
    expect(created.status).toBe(201);
    expect(live.sandbox.payments()[0]).toMatchObject({ amount: '499.00', currency: 'JPY' });
  });

  it('charges the largest sum every layer holds exactly as written, and a paisa less of it is underpaid', async () => {
    live = await startLive({ resolveOrder: () => ({ amount: '9999999999999.99', currency: 'INR' }) });
    const { status, body } = await live.create('A-1', 'upi');
    expect(status).toBe(201);
    expect(live.sandbox.payment(body.payment.id)?.amount).toBe('9999999999999.99');
    expect(body.payment.qr).toContain('am=9999999999999.99&');
    live.sandbox.act(body.payment.id, 'pay', { amount: '9999999999999.98' });
    await eventually(() => live!.updates.some((u) => u.payment.final), 5_000, 'the payment to be final');
    expect(live.updates.find((u) => u.payment.final)?.payment).toMatchObject({ outcome: 'underpaid', amount: '9999999999999.98' });
  });
});
