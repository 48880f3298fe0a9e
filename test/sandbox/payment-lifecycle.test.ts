import { describe, expect, it } from 'vitest';
import { findSbpQrLink, isSbpQrLink } from '../../src/shared/qr-payload.js';
import { luhnCheckDigit } from '../../src/sandbox/requisites.js';
import { crc16 } from '../../src/sandbox/sbp-qr.js';
import { SandboxError, type SandboxAction } from '../../src/sandbox/index.js';
import { control, createPayment, readSigned, setup, status } from './helpers.js';

const RUB = { currency: 'RUB' };

describe('a payment over time', () => {
  it('stays created without requisites, then turns pending with requisites after requisitesDelayMs', async () => {
    const { sandbox, clock } = setup({ requisitesDelayMs: 2500 });
    const id = await createPayment(sandbox);
    await clock.advance(2499);
    expect(sandbox.payment(id)).toMatchObject({ state: 'created' });
    expect(sandbox.payment(id)).not.toHaveProperty('requisites');
    await clock.advance(1);
    const p = sandbox.payment(id)!;
    expect(p.state).toBe('pending');
    expect(p.status).toBe(false);
    expect(p.requisites!.address).toMatch(/^payee\.[a-z0-9]{4}@okdemo$/);
    expect(p.requisites!.recipient.length).toBeGreaterThan(0);
  });

  it('gives sbp a Russian mobile number, c2c a Luhn-valid 16-digit card, each with recipient and bank', async () => {
    const { sandbox, clock } = setup();
    const sbp = await createPayment(sandbox, { method: 'sbp', ...RUB });
    const c2c = await createPayment(sandbox, { method: 'c2c', ...RUB });
    await clock.advance(1000);
    const phone = sandbox.payment(sbp)!.requisites!;
    expect(phone.address).toMatch(/^\+7 9\d{2} \d{3}-\d{2}-\d{2}$/);
    expect(phone.bank).toMatch(/\w/);
    const card = sandbox.payment(c2c)!.requisites!;
    expect(card.address).toMatch(/^\d{16}$/);
    expect(luhnCheckDigit(card.address.slice(0, 15))).toBe(card.address[15]);
    expect(card.recipient).toMatch(/\w/);
    expect(sandbox.payment(sbp)!.media).toEqual([]);
  });

  it('puts a well-formed qr.nspk.ru link in media for sbp when sbpQr is on', async () => {
    const { sandbox, clock } = setup({ sbpQr: true });
    const id = await createPayment(sandbox, { method: 'sbp', amount: '1234.50', ...RUB });
    await clock.advance(1000);
    const payment = await readSigned(await status(sandbox, { paymentId: id }));
    const link = findSbpQrLink([payment.media]);
    expect(isSbpQrLink(link)).toBe(true);
    const url = new URL(link!);
    expect(url.searchParams.get('type')).toBe('02');
    expect(url.searchParams.get('sum')).toBe('123450');
    expect(url.searchParams.get('cur')).toBe('RUB');
    expect(url.searchParams.get('bank')).toMatch(/^\d{12}$/);
    const head = link!.slice(0, link!.indexOf('&crc='));
    expect(url.searchParams.get('crc')).toBe(crc16(head).toString(16).toUpperCase().padStart(4, '0'));
  });

  it('expires at expired_at when nobody acted, and never changes again', async () => {
    const { sandbox, clock } = setup({ ttlSeconds: 60 });
    const id = await createPayment(sandbox);
    await clock.advance(59_999);
    expect(sandbox.payment(id)!.state).toBe('pending');
    await clock.advance(1);
    expect(sandbox.payment(id)!.state).toBe('expired');
    const response = await sandbox(control(`/sandbox/payments/${id}/pay`, { method: 'POST' }));
    expect(response.status).toBe(409);
    expect((await response.json()).message).toMatch(/already expired/);
    expect(sandbox.payment(id)!.state).toBe('expired');
  });

  it('does not expire by itself while the payment is being checked', async () => {
    const { sandbox, clock } = setup({ ttlSeconds: 60 });
    const id = await createPayment(sandbox);
    await clock.advance(1000);
    sandbox.act(id, 'in-check');
    await clock.advance(120_000);
    expect(sandbox.payment(id)!.state).toBe('in_check');
    expect(sandbox.act(id, 'pay').state).toBe('finished');
  });

  it('moves through in_check and dispute to finished, with status true only when finished', async () => {
    const { sandbox, clock } = setup();
    const id = await createPayment(sandbox);
    await clock.advance(1000);
    const states = [];
    for (const action of ['in-check', 'dispute', 'pay'] as const) {
      const p = sandbox.act(id, action);
      states.push([p.state, p.status]);
    }
    expect(states).toEqual([
      ['in_check', false],
      ['dispute', false],
      ['finished', true],
    ]);
  });

  it('reaches each final state by its action and then answers 409 to every action', async () => {
    const finals: [SandboxAction, string][] = [
      ['pay', 'finished'],
      ['cancel', 'canceled'],
      ['fail', 'failed'],
      ['expire', 'expired'],
    ];
    for (const [action, state] of finals) {
      const { sandbox, clock } = setup();
      const id = await createPayment(sandbox);
      await clock.advance(1000);
      const response = await sandbox(control(`/sandbox/payments/${id}/${action}`, { method: 'POST' }));
      expect(response.status).toBe(200);
      expect((await response.json()).state).toBe(state);
      for (const next of ['pay', 'in-check', 'dispute', 'cancel', 'fail', 'expire']) {
        const again = await sandbox(control(`/sandbox/payments/${id}/${next}`, { method: 'POST' }));
        expect(again.status, `${state} then ${next}`).toBe(409);
        expect((await again.json()).code).toBe(409);
      }
      await clock.advance(2_000_000);
      expect(sandbox.payment(id)!.state).toBe(state);
      sandbox.close();
    }
  });

  it('refuses in-check and dispute before requisites are assigned, naming what is possible', async () => {
    const { sandbox } = setup();
    const id = await createPayment(sandbox);
    const error = (() => {
      try {
        sandbox.act(id, 'in-check');
      } catch (e) {
        return e;
      }
    })();
    expect(error).toBeInstanceOf(SandboxError);
    expect((error as SandboxError).status).toBe(409);
    expect((error as SandboxError).message).toMatch(/created payment cannot become in_check/);
  });

  it('records a different paid amount and keeps init_amount (success with recalculation)', async () => {
    const { sandbox, clock } = setup({ commissionPercent: 10 });
    const id = await createPayment(sandbox);
    await clock.advance(1000);
    const response = await sandbox(
      control(`/sandbox/payments/${id}/pay`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ amount: '240' }),
      }),
    );
    expect(response.status).toBe(200);
    const payment = await readSigned(await status(sandbox, { paymentId: id }));
    expect(payment).toMatchObject({ state: 'finished', status: true, amount: '240.00', init_amount: '250.00', commission: 24 });
    expect(payment.amount_commission_less).toBe(216);
  });

  it('refuses a bad paid amount without changing the payment', async () => {
    const { sandbox, clock } = setup();
    const id = await createPayment(sandbox);
    await clock.advance(1000);
    for (const amount of ['-1', '0', 'abc', '1.999']) {
      expect(() => sandbox.act(id, 'pay', { amount })).toThrow(/amount must be a positive decimal/);
    }
    expect(() => sandbox.act(id, 'cancel', { amount: '1.00' } as never)).toThrow(/only "pay" takes an amount/);
    expect(sandbox.payment(id)).toMatchObject({ state: 'pending', amount: '250.00' });
  });
});
