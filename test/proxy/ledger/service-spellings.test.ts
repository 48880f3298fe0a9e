/**
 * The service writes a Payment more loosely than its spec: a field it has no value for as `null` (a rate before
 * anyone paid), a currency in lower case ("inr", as the provider's own signature example writes "uah"), an amount
 * with a space or a comma between its thousands. A signed answer written so is still the service's word: each
 * test below was refused whole before (the callback with 400, the status answer as malformed), so that the payment
 * stood still and the shop never heard it paid. None of them may ever read as a wrong "paid".
 */
import { describe, expect, it } from 'vitest';
import { capturingLogger, setup } from '../harness.js';

const NULL_FIELDS = {
  rate: null,
  commission: null,
  amount_commission_less: null,
  userId: null,
  type: null,
  media: null,
  datetime: null,
  requisites: null,
};

/** Writes fields as the service may, nulls included, which the fake service's own types do not allow. */
const write = (t: ReturnType<typeof setup>, id: string, fields: Record<string, unknown>) =>
  void Object.assign(t.service.payments.get(id)!, fields);

const outcomes = (t: ReturnType<typeof setup>, id: string) => t.updates.filter((u) => u.payment.id === id).map((u) => u.payment.outcome);

describe('a Payment the service writes loosely', () => {
  it('is read with its null fields left out: the shop hears paid, once', async () => {
    const t = setup();
    const { body } = await t.create('A-1');
    const id = body.payment.id;
    write(t, id, { state: 'finished', status: true, ...NULL_FIELDS });
    expect((await t.callback(t.service.payments.get(id))).status).toBe(200);
    expect(outcomes(t, id)).toEqual(['waiting', 'paid']);
    const shown = await t.status(id, body.token);
    expect(shown.body.payment).toMatchObject({ state: 'finished', outcome: 'paid', amount: '250.00' });
    // The payee the shopper was shown stays on the record: a null says nothing new about it.
    expect(shown.body.payment.requisites).toMatchObject({ address: 'shop@okbank' });
  });

  it('is not paid while its status flag is null, and paid once the service sets it', async () => {
    const t = setup();
    const { body } = await t.create('A-1');
    const id = body.payment.id;
    write(t, id, { state: 'finished', status: null, rate: null });
    expect((await t.callback(t.service.payments.get(id))).status).toBe(200);
    expect((await t.status(id, body.token)).body.payment.outcome).toBe('waiting');
    t.service.set(id, { status: true });
    expect((await t.callback(t.service.payments.get(id))).status).toBe(200);
    expect(outcomes(t, id)).toEqual(['waiting', 'paid']);
  });

  it('is never paid when its amount is null: an amount nobody can read covers no price', async () => {
    const t = setup();
    const { body } = await t.create('A-1');
    const id = body.payment.id;
    write(t, id, { state: 'finished', status: true, amount: null });
    await t.callback(t.service.payments.get(id));
    await t.status(id, body.token);
    expect(outcomes(t, id)).not.toContain('paid');
    expect((await t.store.getOrder('A-1'))?.paidBy).toBeUndefined();
  });

  it('takes a currency in lower case as the upper-case code: the payee is shown and the shop hears paid in INR', async () => {
    const t = setup();
    t.service.createShape = 'payment';
    t.service.onCreate = (request) => {
      const p = t.service.add({ orderId: String(request.orderId), currency: 'inr', method: 'upi' });
      return { body: p };
    };
    const { response, body } = await t.create('A-1');
    expect(response.status).toBe(201);
    const id = body.payment.id;
    expect(body.payment).toMatchObject({ currency: 'INR', amount: '250.00', requisites: { address: 'shop@okbank' } });
    t.service.set(id, { requisites: { address: 'shop2@okbank' } });
    expect((await t.status(id, body.token)).body.payment.requisites).toMatchObject({ address: 'shop2@okbank' });
    t.service.set(id, { state: 'finished', status: true, currency: ' inr ' });
    await t.callback(t.service.payments.get(id));
    const paid = t.updates.filter((u) => u.payment.outcome === 'paid');
    expect(paid.map((u) => [u.payment.id, u.payment.currency, u.payment.amount])).toEqual([[id, 'INR', '250.00']]);
  });

  it('takes a state in capitals or with spaces around it as the state it names: paid is heard, once', async () => {
    const t = setup();
    const { body } = await t.create('A-1');
    const id = body.payment.id;
    write(t, id, { state: ' In_Check' });
    await t.callback(t.service.payments.get(id));
    write(t, id, { state: 'FINISHED', status: true });
    await t.callback(t.service.payments.get(id));
    await t.callback(t.service.payments.get(id));
    expect(t.updates.filter((u) => u.payment.id === id).map((u) => [u.payment.state, u.payment.outcome])).toEqual([
      ['pending', 'waiting'],
      ['in_check', 'checking'],
      ['finished', 'paid'],
    ]);
  });

  it('reads an amount with spaces or commas between its thousands, and a decimal comma, as the sum it names', async () => {
    const cases: [string, string, string][] = [
      ['1 499.00', 'paid', '1499.00'],
      ['1\u00a0499,00', 'paid', '1499.00'],
      ['1,499.00', 'paid', '1499.00'],
      ['1 600', 'paid', '1600.00'],
      ['1 399,50', 'underpaid', '1399.50'],
      ['999,9', 'underpaid', '999.90'],
      // A decimal column of four places, as a shop's price may come (money.ts): only zeros past the cents.
      ['1499.0000', 'paid', '1499.00'],
      ['1499.000', 'paid', '1499.00'],
      ['1498.9900', 'underpaid', '1498.99'],
    ];
    for (const [written, outcome, amount] of cases) {
      const t = setup({ resolveOrder: () => ({ amount: '1499.00', currency: 'INR' }) });
      const { body } = await t.create('A-1');
      const id = body.payment.id;
      t.service.set(id, { state: 'finished', status: true, amount: written, amount_commission_less: '1 450,03' });
      expect((await t.callback(t.service.payments.get(id))).status, written).toBe(200);
      const heard = t.updates.filter((u) => u.payment.id === id && u.payment.state === 'finished');
      expect(
        heard.map((u) => [u.payment.outcome, u.payment.amount]),
        written,
      ).toEqual([[outcome, amount]]);
    }
  });

  it('is never paid on an amount that reads two ways ("1,499", "1.499,00") or not at all, and the log names it', async () => {
    for (const written of ['1,499', '1.499,00', '1 49,00', '1,49,900.00', '14 99.00', '1_499.00', '1498.999', '1499.0001']) {
      const log = capturingLogger();
      const t = setup({ resolveOrder: () => ({ amount: '1499.00', currency: 'INR' }), logger: log.logger });
      const { body } = await t.create('A-1');
      const id = body.payment.id;
      t.service.set(id, { state: 'finished', status: true, amount: written });
      await t.callback(t.service.payments.get(id));
      await t.status(id, body.token);
      expect(outcomes(t, id), written).not.toContain('paid');
      expect(log.lines.filter((line) => line.includes(id) && line.includes('cannot be read')).length, written).toBeGreaterThan(0);
    }
  });
});
