/**
 * What a payment's QR encodes. UPI: the `upi://pay` link of the NPCI linking spec, each value percent-encoded
 * with encodeURIComponent (UPI apps read `+` literally, so URLSearchParams is wrong here). SBP: an interoperable
 * SBP QR can only be registered by the merchant's bank, so it is shown only when the service hands one over
 * (a qr.nspk.ru link), else the hosted payment page as "continue on your phone", else nothing.
 */

export interface UpiLinkInput {
  /** Payee VPA (`pa`), e.g. `shop@okbank`: for a UPI payment, `requisites.address`. */
  vpa: string;
  /** Payee name (`pn`). */
  payeeName: string;
  /** "499.00" (`am`). */
  amount?: string;
  /** Default INR (`cu`). */
  currency?: string;
  /** Transaction reference (`tr`): the order or payment reference. */
  reference?: string;
  /** Note shown in the app (`tn`). */
  note?: string;
}

export function upiLink(input: UpiLinkInput): string {
  if (!input.vpa.trim()) throw new TypeError('A UPI link needs the payee VPA (pa).');
  if (!input.payeeName.trim()) throw new TypeError('A UPI link needs the payee name (pn).');
  const params: [string, string | undefined][] = [
    ['pa', input.vpa.trim()],
    ['pn', input.payeeName.trim()],
    ['am', input.amount],
    ['cu', input.amount === undefined ? undefined : (input.currency ?? 'INR')],
    ['tr', input.reference],
    ['tn', input.note],
  ];
  const query = params
    .filter((p): p is [string, string] => typeof p[1] === 'string' && p[1] !== '')
    .map(([k, v]) => `${k}=${encodeURIComponent(v)}`)
    .join('&');
  return `upi://pay?${query}`;
}

const NSPK = /^https:\/\/qr\.nspk\.ru\/[A-Za-z0-9]+(\?\S*)?$/;

export function isSbpQrLink(value: unknown): value is string {
  return typeof value === 'string' && NSPK.test(value);
}

/**
 * A bank's `schema` in NSPK's member list (`bank` and 12 digits): the scheme of its app on iOS, which replaces
 * `https` in a C2B link. Anything else is refused, so that no list entry can become another kind of link.
 */
export function isSbpBankSchema(value: unknown): value is string {
  return typeof value === 'string' && /^bank\d{12}$/.test(value);
}

/**
 * A bank's `package_name` in NSPK's member list: an Android package name, which the widget writes into an intent
 * link. Anything else is refused, so that no list entry can add to the link (`;S.browser_fallback_url=...`).
 */
export const ANDROID_PACKAGE = /^[A-Za-z][\w.]{0,200}$/;

/**
 * Looks for a qr.nspk.ru link in the places the service has been seen to put one; with `fits`, only one it
 * accepts.
 */
export function findSbpQrLink(candidates: readonly unknown[], fits: (link: string) => boolean = () => true): string | undefined {
  for (const c of candidates) {
    if (isSbpQrLink(c) && fits(c)) return c;
    if (Array.isArray(c)) {
      const inner = findSbpQrLink(c, fits);
      if (inner) return inner;
    } else if (c && typeof c === 'object') {
      const inner = findSbpQrLink(Object.values(c), fits);
      if (inner) return inner;
    }
  }
  return undefined;
}

/**
 * Whether an SBP link asks what the payment asks: a dynamic C2B link carries its own sum (`sum`, in kopecks) and
 * currency (`cur`), which the bank app asks the shopper for whatever the page shows, so a link whose sum or
 * currency differs from `amount` and `currency` is not offered. A static link carries no sum (the shopper types
 * the one shown).
 */
export function sbpLinkAsks(link: string, amount: string, currency: string): boolean {
  const query = new URL(link).searchParams;
  const sum = query.get('sum');
  const cur = query.get('cur');
  const kopecks = (text: string) => text.replace('.', '').replace(/^0+(?=\d)/, '');
  return (sum === null || (/^\d+$/.test(sum) && kopecks(sum) === kopecks(amount))) && (cur === null || cur === currency);
}

export interface QrSource {
  method: string;
  amount: string;
  currency: string;
  orderId: string;
  requisites?: { address: string; recipient?: string; bank?: string };
  /** Hosted payment page. */
  payUrl?: string;
  /** Anything else from the service that may carry an SBP link (media, extra fields). */
  extra?: readonly unknown[];
}

/** The QR text for a payment, or undefined when there is nothing honest to encode. */
export function qrPayload(source: QrSource): string | undefined {
  const method = source.method.toLowerCase();
  if (method === 'upi') {
    const r = source.requisites;
    if (!r?.address?.includes('@')) return undefined;
    return upiLink({
      vpa: r.address,
      payeeName: r.recipient?.trim() || r.address,
      amount: source.amount,
      currency: source.currency || 'INR',
      reference: source.orderId,
      note: `Order ${source.orderId}`,
    });
  }
  if (method === 'sbp') {
    const asks = (link: string) => sbpLinkAsks(link, source.amount, source.currency);
    return findSbpQrLink([source.requisites?.address, ...(source.extra ?? [])], asks) ?? webUrl(source.payUrl);
  }
  return undefined;
}

/** The value when it is an http(s) URL: the only kind a hosted payment page may be (never javascript:). */
export function webUrl(value: unknown): string | undefined {
  if (typeof value !== 'string' || value === '') return undefined;
  try {
    const { protocol } = new URL(value);
    return protocol === 'https:' || protocol === 'http:' ? value : undefined;
  } catch {
    return undefined;
  }
}
