/**
 * Reads the deep links the element opens on a phone (docs/phone-links.md), so that the sandbox's /phone page can
 * play the app they would open: UPI links (`upi://pay?...`, an Android intent with `scheme=upi`, an iOS app's own
 * scheme) and SBP links (a bank's `<schema>://qr.nspk.ru/<ID>?...`, an Android intent to `qr.nspk.ru`, the plain
 * `https://qr.nspk.ru/<ID>` link, or a bank app opened without a link to pay a phone number). Which app a link
 * names is read from its scheme or its Android package; anything else is refused with the reason, never guessed.
 */
import { sbpMemberOf } from './sbp-members.js';

export type PhoneLink =
  | { kind: 'upi'; app: string; payee: string; payeeName: string; amount?: string; currency?: string; reference?: string }
  | { kind: 'sbp'; app: string; qrId?: string; amount?: string };

export type ParsedLink = { ok: true; link: PhoneLink } | { ok: false; reason: string };

/** The iOS schemes of the UPI apps, and `upi:` that any of them may answer. */
const UPI_SCHEMES: Record<string, string> = {
  'gpay:': 'Google Pay',
  'phonepe:': 'PhonePe',
  'paytmmp:': 'Paytm',
  'bhim:': 'BHIM',
  'upi:': 'a UPI app',
};

/** The Android packages of the UPI apps. */
const UPI_PACKAGES: Record<string, string> = {
  'com.google.android.apps.nbu.paisa.user': 'Google Pay',
  'com.phonepe.app': 'PhonePe',
  'net.one97.paytm': 'Paytm',
  'in.org.npci.upiapp': 'BHIM',
  'in.amazon.mShop.android.shopping': 'Amazon Pay',
  'com.dreamplug.androidapp': 'CRED',
};

const MAX_LINK = 4096;

export function parsePhoneLink(text: string): ParsedLink {
  if (text.length > MAX_LINK) return { ok: false, reason: `a link longer than ${MAX_LINK} characters` };
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return { ok: false, reason: 'not a link' };
  }
  const intent = url.protocol === 'intent:' ? intentParts(text) : undefined;
  if (url.protocol === 'intent:' && !intent) return { ok: false, reason: 'an intent link without #Intent;scheme=...;end' };
  const scheme = intent ? `${intent.scheme}:` : url.protocol;
  const query = new URLSearchParams(keepPlus(url.search));
  if (scheme === 'upi:' || (!intent && UPI_SCHEMES[scheme])) {
    const payee = query.get('pa');
    if (!payee) return { ok: false, reason: 'a UPI link without a payee (pa)' };
    const app = intent ? (UPI_PACKAGES[intent.package ?? ''] ?? intent.package ?? 'a UPI app') : UPI_SCHEMES[scheme]!;
    return {
      ok: true,
      link: {
        kind: 'upi',
        app,
        payee,
        payeeName: query.get('pn') ?? '',
        ...optional('amount', query.get('am')),
        ...optional('currency', query.get('cu')),
        ...optional('reference', query.get('tr')),
      },
    };
  }
  const nspkId = /^(?:https:|bank\d{12}:)?\/\/qr\.nspk\.ru\/([A-Za-z0-9]{1,64})(?:[?#]|$)/.exec(text.replace(/^intent:/, 'https:'))?.[1];
  const bankScheme = /^bank\d{12}:$/.test(scheme);
  if (bankScheme || (nspkId && (scheme === 'https:' || intent))) {
    const bank = sbpMemberOf(intent?.package ?? scheme.replace(/:$/, ''));
    const app = bank?.bankName ?? intent?.package ?? (bankScheme ? scheme.replace(/:$/, '') : 'a bank app');
    if (!nspkId && /qr\.nspk\.ru/.test(text)) return { ok: false, reason: 'a qr.nspk.ru link without a payment id' };
    const kopecks = query.get('sum');
    const amount =
      kopecks && /^\d{1,15}$/.test(kopecks) ? `${kopecks.slice(0, -2) || '0'}.${kopecks.padStart(2, '0').slice(-2)}` : undefined;
    return { ok: true, link: { kind: 'sbp', app, ...optional('qrId', nspkId), ...optional('amount', amount) } };
  }
  return { ok: false, reason: `no payment app handles ${scheme}` };
}

/** `intent://...#Intent;scheme=upi;package=...;end` -> its scheme and package. */
function intentParts(text: string): { scheme: string; package?: string } | undefined {
  const fragment = /#Intent;(.*);end$/.exec(text)?.[1];
  if (!fragment) return undefined;
  const fields = new Map(fragment.split(';').map((f) => [f.slice(0, f.indexOf('=')), f.slice(f.indexOf('=') + 1)] as const));
  const scheme = fields.get('scheme');
  if (!scheme || !/^[a-z][a-z0-9+.-]*$/i.test(scheme)) return undefined;
  const pkg = fields.get('package');
  return pkg ? { scheme: scheme.toLowerCase(), package: pkg } : { scheme: scheme.toLowerCase() };
}

/** UPI apps read `+` literally: keep it a plus instead of letting URLSearchParams make it a space. */
function keepPlus(search: string): string {
  return search.replace(/\+/g, '%2B');
}

function optional<K extends string>(key: K, value: string | null | undefined): Partial<Record<K, string>> {
  return value ? ({ [key]: value } as Record<K, string>) : {};
}
