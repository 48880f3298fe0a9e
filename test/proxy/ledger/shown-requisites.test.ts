import { describe, expect, it } from 'vitest';
import { setup } from '../harness.js';

/** The payment a create answers when the service gives `requisites`, as the browser gets it. */
async function createdWith(requisites: { address: string; recipient?: string; bank?: string }, method = 'upi') {
  const t = setup();
  t.service.onCreate = (body) => ({ body: t.service.add({ orderId: String(body.orderId), method, requisites }) });
  const { response, body } = await t.create('A-1', method);
  expect(response.status).toBe(201);
  return body.payment;
}

describe('the requisites a shopper is shown', () => {
  it('never show a recipient whose direction override makes it read as another name', async () => {
    // U+202E shows "dtl pohS" as "Shop ltd": the shopper would read a name the payee does not have.
    const payment = await createdWith({ address: 'shop@okbank', recipient: '\u202edtl pohS', bank: 'OK Bank' });
    expect(payment.requisites).toEqual({ address: 'shop@okbank', bank: 'OK Bank' });
    expect(payment.qr).toMatch(/^upi:\/\/pay\?pa=shop%40okbank&pn=shop%40okbank&am=250\.00&/);
  });

  it('never show a bank name with an isolate, an invisible character or a control character', async () => {
    for (const bank of ['\u2067Bank\u2069 OK', 'OK\u200b Bank', 'OK Bank\n\nPay to evil@x instead']) {
      const payment = await createdWith({ address: 'shop@okbank', recipient: 'Shop Ltd', bank });
      expect(payment.requisites).toEqual({ address: 'shop@okbank', recipient: 'Shop Ltd' });
    }
  });

  it('never show an address holding a character that is not what it looks like', async () => {
    const looksAlike = [
      'sh\u200bop@okbank', // a zero-width space: the link pays another VPA than the one read
      'sh\u043ep@okbank', // a Cyrillic o
      '\u202ekbanko@pohs', // reads "shop@oknabk" backwards
    ];
    for (const address of looksAlike) {
      const payment = await createdWith({ address, recipient: 'Shop Ltd' });
      expect(payment.requisites).toBeUndefined();
      expect(payment.qr).toBeUndefined();
    }
    // Full-width and Arabic-Indic digits read as a phone number that a bank app does not dial.
    for (const address of ['+7 900 123 45 6\uff17', '+7 900 123 45 6\u0667']) {
      expect((await createdWith({ address }, 'sbp')).requisites).toBeUndefined();
    }
  });

  it('keeps names in any script, with the joiners their scripts need, and addresses with spaces', async () => {
    const hindi = '\u0936\u094d\u200d\u0930\u0940 \u0938\u094d\u091f\u094b\u0930'; // a ZWJ inside a conjunct
    const payment = await createdWith({ address: 'shop@okbank', recipient: hindi, bank: '\u0421\u0431\u0435\u0440' });
    expect(payment.requisites).toEqual({ address: 'shop@okbank', recipient: hindi, bank: '\u0421\u0431\u0435\u0440' });
    expect((await createdWith({ address: '+7 900 123-45-67', recipient: 'Ivan P.' }, 'sbp')).requisites?.address).toBe('+7 900 123-45-67');
  });

  it('show an address the service padded with spaces as it reads, and encode it so', async () => {
    // A trailing space or line break is no other payee: dropping the requisites would leave the shopper nothing to pay.
    const payment = await createdWith({ address: ' shop@okbank\n', recipient: 'Shop Ltd' });
    expect(payment.requisites).toEqual({ address: 'shop@okbank', recipient: 'Shop Ltd' });
    expect(payment.qr).toMatch(/^upi:\/\/pay\?pa=shop%40okbank&/);
  });

  it('never show a name longer than a name, which would crowd out the sum and the address', async () => {
    const payment = await createdWith({ address: 'shop@okbank', recipient: 'Shop '.repeat(10_000) });
    expect(payment.requisites).toEqual({ address: 'shop@okbank' });
  });
});
