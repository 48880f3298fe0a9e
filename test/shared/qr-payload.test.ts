import { describe, expect, it } from 'vitest';
import { findSbpQrLink, qrPayload, upiLink } from '../../src/shared/qr-payload.js';

const NSPK = 'https://qr.nspk.ru/AS1000670LSS7DN18SJQDNP4B05KLJL2?type=02&bank=100000000111&sum=25000&cur=RUB&crc=AB75';

describe('upiLink', () => {
  it('build the NPCI link with every value percent-encoded by encodeURIComponent', () => {
    expect(
      upiLink({
        vpa: 'shop@okbank',
        payeeName: 'Demo Shop & Co',
        amount: '499.00',
        currency: 'INR',
        reference: 'A-1001',
        note: 'Order A-1001',
      }),
    ).toBe('upi://pay?pa=shop%40okbank&pn=Demo%20Shop%20%26%20Co&am=499.00&cu=INR&tr=A-1001&tn=Order%20A-1001');
  });

  it('leave out what is not given, and the currency without an amount', () => {
    expect(upiLink({ vpa: 'a@b', payeeName: 'A' })).toBe('upi://pay?pa=a%40b&pn=A');
  });

  it('refuse a link without a payee VPA or name', () => {
    expect(() => upiLink({ vpa: ' ', payeeName: 'A' })).toThrow(/VPA/);
    expect(() => upiLink({ vpa: 'a@b', payeeName: '' })).toThrow(/name/);
  });
});

describe('qrPayload', () => {
  const base = { amount: '250.00', currency: 'INR', orderId: 'A-1' };

  it('encode a upi payment as a upi:// link to the VPA in the requisites', () => {
    expect(qrPayload({ ...base, method: 'upi', requisites: { address: 'payee@okdemo', recipient: 'Payee' } })).toBe(
      'upi://pay?pa=payee%40okdemo&pn=Payee&am=250.00&cu=INR&tr=A-1&tn=Order%20A-1',
    );
  });

  it('fall back to the VPA as the payee name when the recipient is missing', () => {
    expect(qrPayload({ ...base, method: 'UPI', requisites: { address: 'p@x' } })).toContain('pn=p%40x');
  });

  it('give no upi QR before the VPA is assigned or when the address is not a VPA', () => {
    expect(qrPayload({ ...base, method: 'upi' })).toBeUndefined();
    expect(qrPayload({ ...base, method: 'upi', requisites: { address: '+919876543210' } })).toBeUndefined();
  });

  it('use an SBP link the service hands over, wherever it put it', () => {
    const sbp = { ...base, currency: 'RUB', method: 'sbp', requisites: { address: '+79001234567' } };
    expect(qrPayload({ ...sbp, extra: [[{ url: NSPK }]] })).toBe(NSPK);
    expect(qrPayload({ ...sbp, requisites: { address: NSPK } })).toBe(NSPK);
  });

  it('offer the hosted page for sbp when there is no SBP link, and nothing otherwise', () => {
    const sbp = { ...base, currency: 'RUB', method: 'sbp', requisites: { address: '+79001234567' } };
    expect(qrPayload({ ...sbp, payUrl: 'https://pay.example/p/1' })).toBe('https://pay.example/p/1');
    expect(qrPayload({ ...sbp, payUrl: 'javascript:alert(1)' })).toBeUndefined();
    expect(qrPayload(sbp)).toBeUndefined();
  });

  it("never offer an SBP link whose own sum or currency is not the payment's: the bank app would ask for it", () => {
    const sbp = { ...base, currency: 'RUB', method: 'sbp', requisites: { address: '+79001234567' }, payUrl: 'https://pay.example/p/1' };
    const tenTimes = NSPK.replace('sum=25000', 'sum=250000');
    expect(qrPayload({ ...sbp, extra: [tenTimes] })).toBe('https://pay.example/p/1');
    expect(qrPayload({ ...sbp, extra: [NSPK.replace('cur=RUB', 'cur=USD')] })).toBe('https://pay.example/p/1');
    expect(qrPayload({ ...sbp, extra: [tenTimes, NSPK] })).toBe(NSPK);
    // A link without a sum (a static QR: the shopper types the sum) is kept.
    const noSum = NSPK.replace('&sum=25000', '');
    expect(qrPayload({ ...sbp, extra: [noSum] })).toBe(noSum);
    expect(qrPayload({ ...sbp, amount: '5.00', extra: [NSPK.replace('sum=25000', 'sum=500')] })).toContain('sum=500');
  });

  it('never build a QR for card transfers', () => {
    expect(qrPayload({ ...base, method: 'c2c', requisites: { address: '4111111111111111' }, payUrl: 'https://x.example' })).toBeUndefined();
  });

  it('only accept well-formed SBP links', () => {
    expect(findSbpQrLink(['https://qr.nspk.ru.evil.example/x', 'http://qr.nspk.ru/AB'])).toBeUndefined();
    expect(findSbpQrLink([null, 5, { a: { b: NSPK } }])).toBe(NSPK);
  });
});
