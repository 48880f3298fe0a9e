/**
 * The deep links the element opens on a phone, as the sandbox's /phone page reads them: every UPI shape (the
 * generic link, an Android intent per app, the iOS apps' own schemes) and every SBP shape (a bank's scheme or
 * Android intent for a C2B link, the plain qr.nspk.ru link, a bank app opened for a phone-number transfer),
 * each naming the app it opens; a link no payment app would open is refused with the reason.
 */
import { describe, expect, it } from 'vitest';
import { parsePhoneLink } from '../../src/sandbox/phone-link.js';

const Q = 'pa=shop%40okbank&pn=Tea%20%26%20Mugs&am=499.00&cu=INR&tr=A-1001&tn=Order%20A%2B1';
const UPI = { kind: 'upi', payee: 'shop@okbank', payeeName: 'Tea & Mugs', amount: '499.00', currency: 'INR', reference: 'A-1001' };

describe('the links the sandbox plays the phone for', () => {
  it.each([
    [`upi://pay?${Q}`, 'a UPI app'],
    [`intent://pay?${Q}#Intent;scheme=upi;package=com.google.android.apps.nbu.paisa.user;end`, 'Google Pay'],
    [`intent://pay?${Q}#Intent;scheme=upi;package=com.phonepe.app;end`, 'PhonePe'],
    [`intent://pay?${Q}#Intent;scheme=upi;package=net.one97.paytm;end`, 'Paytm'],
    [`intent://pay?${Q}#Intent;scheme=upi;package=in.org.npci.upiapp;end`, 'BHIM'],
    [`intent://pay?${Q}#Intent;scheme=upi;package=org.example.wallet;end`, 'org.example.wallet'],
    [`gpay://upi/pay?${Q}`, 'Google Pay'],
    [`phonepe://pay?${Q}`, 'PhonePe'],
    [`paytmmp://upi/pay?${Q}`, 'Paytm'],
    [`bhim://upi/pay?${Q}`, 'BHIM'],
  ])('reads the UPI link %s', (link, app) => {
    expect(parsePhoneLink(link)).toEqual({ ok: true, link: { ...UPI, app } });
  });

  it('reads SBP C2B links for a bank on iOS and Android, and the plain qr.nspk.ru link', () => {
    const p = 'type=02&bank=100000000111&sum=49905&cur=RUB&crc=AB12';
    const sbp = { kind: 'sbp', qrId: 'AD1ABC', amount: '499.05' };
    expect(parsePhoneLink(`bank100000000004://qr.nspk.ru/AD1ABC?${p}`)).toEqual({ ok: true, link: { ...sbp, app: 'Т-Банк' } });
    expect(parsePhoneLink(`intent://qr.nspk.ru/AD1ABC?${p}#Intent;scheme=https;package=ru.sberbankmobile;end`)).toEqual({
      ok: true,
      link: { ...sbp, app: 'Сбербанк' },
    });
    expect(parsePhoneLink(`https://qr.nspk.ru/AD1ABC?${p}`)).toEqual({ ok: true, link: { ...sbp, app: 'a bank app' } });
    expect(parsePhoneLink('https://qr.nspk.ru/AD1ABC?sum=5')).toEqual({ ok: true, link: { ...sbp, amount: '0.05', app: 'a bank app' } });
  });

  it('reads a bank app opened without a link, for a transfer to a phone number', () => {
    expect(parsePhoneLink('bank100000000111://')).toEqual({ ok: true, link: { kind: 'sbp', app: 'Сбербанк' } });
    expect(parsePhoneLink('intent://open#Intent;scheme=bank100000000008;package=ru.alfabank.mobile.android;end')).toEqual({
      ok: true,
      link: { kind: 'sbp', app: 'Альфа-Банк' },
    });
    expect(parsePhoneLink('bank100000000999://')).toEqual({ ok: true, link: { kind: 'sbp', app: 'bank100000000999' } });
  });

  it('refuses what no payment app would open, saying why', () => {
    expect(parsePhoneLink('')).toEqual({ ok: false, reason: 'not a link' });
    expect(parsePhoneLink('not a link')).toEqual({ ok: false, reason: 'not a link' });
    expect(parsePhoneLink('upi://pay?pn=x')).toEqual({ ok: false, reason: 'a UPI link without a payee (pa)' });
    expect(parsePhoneLink('intent://pay?pa=x')).toEqual({ ok: false, reason: 'an intent link without #Intent;scheme=...;end' });
    expect(parsePhoneLink('intent://pay?pa=x#Intent;package=com.phonepe.app;end')).toEqual({
      ok: false,
      reason: 'an intent link without #Intent;scheme=...;end',
    });
    expect(parsePhoneLink('javascript:alert(1)')).toEqual({ ok: false, reason: 'no payment app handles javascript:' });
    expect(parsePhoneLink('https://example.com/pay')).toEqual({ ok: false, reason: 'no payment app handles https:' });
    expect(parsePhoneLink('intent://example.com/#Intent;scheme=https;package=ru.sberbankmobile;end')).toEqual({
      ok: false,
      reason: 'no payment app handles https:',
    });
    expect(parsePhoneLink('bank100000000004://qr.nspk.ru/')).toEqual({ ok: false, reason: 'a qr.nspk.ru link without a payment id' });
    expect(parsePhoneLink(`upi://pay?pa=${'x'.repeat(5000)}`)).toEqual({ ok: false, reason: 'a link longer than 4096 characters' });
  });
});
