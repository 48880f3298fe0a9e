/**
 * Reads the deep links the element opens on a phone (docs/phone-links.md), so that the sandbox's /phone page can
 * play the app they would open: UPI links (`upi://pay?...`, an Android intent with `scheme=upi`, an iOS app's own
 * scheme) and SBP links (a bank's `<schema>://qr.nspk.ru/<ID>?...`, an Android intent to `qr.nspk.ru`, or a bank
 * app opened without a link). Anything else is refused with the reason, never guessed at.
 */

export type PhoneLink =
  | { kind: 'upi'; app: string; payee: string; payeeName: string; amount?: string; currency?: string; reference?: string }
  | { kind: 'sbp'; app: string; qrId?: string; amount?: string };

export type ParsedLink = { ok: true; link: PhoneLink } | { ok: false; reason: string };

const UPI_APPS: Record<string, string> = {
  'gpay:': 'Google Pay',
  'phonepe:': 'PhonePe',
  'paytmmp:': 'Paytm',
  'bhim:': 'BHIM',
  'upi:': 'a UPI app',
};

export function parsePhoneLink(text: string): ParsedLink {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return { ok: false, reason: 'not a link' };
  }
  const intent = url.protocol === 'intent:' ? intentParts(text) : undefined;
  if (url.protocol === 'intent:' && !intent) return { ok: false, reason: 'an intent link without #Intent;...;end' };
  const scheme = intent ? `${intent.scheme}:` : url.protocol;
  const app = intent?.package ?? UPI_APPS[url.protocol] ?? url.protocol.replace(/:$/, '');
  const query = new URLSearchParams(decodePlus(url.search));
  if (scheme === 'upi:' || UPI_APPS[url.protocol]) {
    const payee = query.get('pa');
    if (!payee) return { ok: false, reason: 'a UPI link without a payee (pa)' };
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
  const onNspk = url.hostname === 'qr.nspk.ru' || url.pathname.startsWith('//qr.nspk.ru/');
  if (/^bank\d{12}:$/.test(scheme) || (intent && onNspk)) {
    const qrId = /qr\.nspk\.ru\/([A-Za-z0-9]+)/.exec(text)?.[1];
    const kopecks = query.get('sum');
    const amount =
      kopecks && /^\d+$/.test(kopecks) ? `${Math.floor(Number(kopecks) / 100)}.${kopecks.padStart(3, '0').slice(-2)}` : undefined;
    return { ok: true, link: { kind: 'sbp', app, ...optional('qrId', qrId), ...optional('amount', amount) } };
  }
  return { ok: false, reason: `no payment app handles ${scheme}` };
}

/** `intent://...#Intent;scheme=upi;package=...;end` -> its scheme and package. */
function intentParts(text: string): { scheme: string; package?: string } | undefined {
  const fragment = /#Intent;(.*);end$/.exec(text)?.[1];
  if (!fragment) return undefined;
  const fields = new Map(fragment.split(';').map((f) => f.split('=') as [string, string]));
  const scheme = fields.get('scheme');
  if (!scheme) return undefined;
  const pkg = fields.get('package');
  return pkg ? { scheme, package: pkg } : { scheme };
}

/** UPI apps read `+` literally: keep it a plus instead of letting URLSearchParams make it a space. */
function decodePlus(search: string): string {
  return search.replace(/\+/g, '%2B');
}

function optional<K extends string>(key: K, value: string | null | undefined): Partial<Record<K, string>> {
  return value ? ({ [key]: value } as Record<K, string>) : {};
}
