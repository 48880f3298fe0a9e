import { describe, expect, it } from 'vitest';
import { parsePhoneLink } from '../../src/sandbox/phone-link.js';

const Q = 'pa=shop%40okbank&pn=Tea%20%26%20Mugs&am=499.00&cu=INR&tr=A-1001';

describe('the links the sandbox plays the phone for', () => {
  it.each([
    [`upi://pay?${Q}`, 'a UPI app'],
    [`intent://pay?${Q}#Intent;scheme=upi;package=com.google.android.apps.nbu.paisa.user;end`, 'com.google.android.apps.nbu.paisa.user'],
    [`gpay://upi/pay?${Q}`, 'Google Pay'],
    [`phonepe://pay?${Q}`, 'PhonePe'],
    [`paytmmp://upi/pay?${Q}`, 'Paytm'],
  ])('reads the UPI link %s', (link, app) => {
    expect(parsePhoneLink(link)).toEqual({
      ok: true,
      link: { kind: 'upi', app, payee: 'shop@okbank', payeeName: 'Tea & Mugs', amount: '499.00', currency: 'INR', reference: 'A-1001' },
    });
  });

  it('reads SBP links for a bank: the C2B link on iOS and Android, and a bank app opened without a link', () => {
    const p = 'type=02&bank=100000000111&sum=49900&cur=RUB&crc=AB12';
    expect(parsePhoneLink(`bank100000000004://qr.nspk.ru/AD1ABC?${p}`)).toEqual({
      ok: true,
      link: { kind: 'sbp', app: 'bank100000000004', qrId: 'AD1ABC', amount: '499.00' },
    });
    expect(parsePhoneLink(`intent://qr.nspk.ru/AD1ABC?${p}#Intent;scheme=https;package=ru.sberbankmobile;end`)).toEqual({
      ok: true,
      link: { kind: 'sbp', app: 'ru.sberbankmobile', qrId: 'AD1ABC', amount: '499.00' },
    });
    expect(parsePhoneLink('bank100000000111://')).toEqual({ ok: true, link: { kind: 'sbp', app: 'bank100000000111' } });
  });

  it('refuses what no payment app would open, saying why', () => {
    expect(parsePhoneLink('not a link')).toEqual({ ok: false, reason: 'not a link' });
    expect(parsePhoneLink('upi://pay?pn=x')).toEqual({ ok: false, reason: 'a UPI link without a payee (pa)' });
    expect(parsePhoneLink('intent://pay?pa=x')).toEqual({ ok: false, reason: 'an intent link without #Intent;...;end' });
    expect(parsePhoneLink('javascript:alert(1)')).toEqual({ ok: false, reason: 'no payment app handles javascript:' });
  });
});
