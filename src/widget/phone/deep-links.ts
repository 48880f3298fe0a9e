/**
 * The links that open a payment app on the phone that shows the checkout (docs/phone-links.md, agreed with the
 * proxy and the sandbox). They are rendered as real `<a href>` anchors, so that the navigation happens in the tap
 * itself: Safari refuses to open an app after an await. What the service signed is never rebuilt: the query of
 * its `upi://pay?` link (or of its own intent URL) travels unchanged into every app's link, and its C2B
 * `qr.nspk.ru` link keeps its path and query. Only fixed schemes are written here, so nothing the service sends
 * can become a `javascript:` link.
 */
import type { PaymentView } from '../../shared/payment-view.js';
import { isSbpQrLink } from '../../shared/qr-payload.js';
import type { Platform } from './device.js';

/** A UPI app: its name, its Android package and, when it has one, the start of its iOS link (before the query). */
export type UpiApp = readonly [name: string, androidPackage: string, iosPrefix?: string];

export const UPI_APPS: Readonly<Record<string, UpiApp>> = {
  gpay: ['Google Pay', 'com.google.android.apps.nbu.paisa.user', 'gpay://upi/pay?'],
  phonepe: ['PhonePe', 'com.phonepe.app', 'phonepe://pay?'],
  paytm: ['Paytm', 'net.one97.paytm', 'paytmmp://upi/pay?'],
  bhim: ['BHIM', 'in.org.npci.upiapp', 'bhim://upi/pay?'],
  amazonpay: ['Amazon Pay', 'in.amazon.mShop.android.shopping'],
};

/** The apps offered when the shop names none: the four that carry most of UPI. */
export const DEFAULT_UPI_APPS = ['gpay', 'phonepe', 'paytm', 'bhim'];

/** The id of the link that lets the phone pick any UPI app (`upi://pay?...`). */
export const ANY_APP = 'any';

export interface AppLink {
  /** An id of UPI_APPS, ANY_APP, or a bank's schema. */
  id: string;
  href: string;
}

const UPI_PAY = /^upi:\/\/pay\?/i;

/** Text that can stand inside an intent link: a fragment or a space would end it early (no app links then; the QR still works). */
const fitsInLink = (text: string) => /^[^#\s]*$/.test(text);
const INTENT_PAY = /^intent:\/\/pay\?([^#\s]*)#Intent;/i;

/**
 * One link per app (the apps in the given order; iOS only those with a scheme), then "any UPI app", from `<Q>`:
 * the query of the payment's UPI link. The proxy hands over the service's own link unchanged (or its own Android
 * intent, which an Android phone then opens as it is), or (when the service gave none) the one
 * src/shared/qr-payload.ts built from the requisites, so it is taken as it comes.
 */
export function upiLinks(payment: PaymentView, platform: Platform, apps: readonly string[]): AppLink[] {
  const qr = payment.qr ?? '';
  const intent = INTENT_PAY.exec(qr);
  const q = UPI_PAY.test(qr) ? qr.slice(10) : intent?.[1];
  if (!q || !fitsInLink(q)) return [];
  if (intent && platform === 'android') return [{ id: ANY_APP, href: qr }];
  const links = apps.flatMap((id) => {
    const [, pkg, ios] = UPI_APPS[id] ?? [];
    const href = platform === 'android' ? `intent://pay?${q}#Intent;scheme=upi;package=${pkg};end` : platform === 'ios' && ios && ios + q;
    return pkg && href ? [{ id, href }] : [];
  });
  return [...links, { id: ANY_APP, href: `upi://pay?${q}` }];
}

/** A member of the NSPK list, as the proxy's `/sbp-banks` serves it. */
export interface SbpBank {
  bankName: string;
  /** `bank` + 12 digits: the bank app's scheme on iOS. */
  schema: string;
  /** The bank app's Android package. */
  package_name?: string;
  /** On the proxy's origin. */
  logoURL?: string;
}

/** The payment's C2B link (`https://qr.nspk.ru/<ID>?<P>`), if the service gave one. */
export function c2bLink(payment: PaymentView): string | undefined {
  return isSbpQrLink(payment.qr) && fitsInLink(payment.qr) ? payment.qr : undefined;
}

/**
 * The link that opens a bank's app: for a C2B payment (`link`, its c2bLink) at that payment (`<schema>://qr.nspk.ru/...`
 * on iOS, an intent to qr.nspk.ru on Android); for a transfer to a phone number, the app itself.
 */
export function sbpBankLink(link: string | undefined, bank: SbpBank, platform: Platform): string | undefined {
  const { schema, package_name: pkg } = bank;
  if (platform === 'ios') return schema + (link ? link.slice('https'.length) : '://');
  if (platform === 'android' && pkg) {
    return `intent:${link ? link.slice('https:'.length) : '//open'}#Intent;scheme=${link ? 'https' : schema};package=${pkg};end`;
  }
  return undefined;
}
