/**
 * The SBP member list for the bank chooser: fetched from the proxy's `{endpoint}/sbp-banks` (never bundled: the
 * NSPK list changes and weighs more than the whole element), kept by the browser's HTTP cache (the proxy allows an
 * hour) rather than by the page, and checked entry by entry, since it comes from outside. A logo is kept only when it is on the proxy's own origin, so that a strict
 * CSP (`img-src 'self'`) allows it and no third party learns who is paying. Its address is resolved against the
 * list's own (after any redirect), as the proxy writes it relative to that: the proxy cannot see a prefix that
 * something in front of it takes off (Next's basePath), which the list's address carries. The proxy serves the list in the
 * order to show it (the largest banks first); the bank chooser (bank-order.ts) puts the shopper's last bank in front.
 */
import { ANDROID_PACKAGE, isSbpBankSchema } from '../../shared/qr-payload.js';
import { routeUrl } from '../api-client.js';
import type { SbpBank } from './deep-links.js';

/** The list; the proxy lets the browser cache it for an hour, so that another element asks no one again. */
export async function loadSbpBanks(endpoint: string, signal: AbortSignal): Promise<SbpBank[]> {
  // Same-origin credentials are fetch's default; the proxy answers JSON whatever the Accept header says.
  const answer = await fetch(routeUrl(endpoint, 'sbp-banks'), { signal });
  // The chooser stays out then; the requisites carry the payment.
  if (!answer.ok) throw new Error(`the SBP bank list answered ${answer.status}`);
  // A fetch answer always has its final address (after redirects; a service worker's own answer too).
  return readSbpBanks(await answer.json(), new URL(answer.url));
}

/** The valid entries of the answer at `at`; a logo only on its origin. */
export function readSbpBanks(value: unknown, at: URL): SbpBank[] {
  const list = (value as { dictionary?: unknown } | null)?.dictionary;
  if (!Array.isArray(list)) return [];
  return (list as Record<string, unknown>[]).flatMap((entry) => {
    const { bankName, schema, package_name, logoURL } = entry ?? {};
    if (typeof bankName !== 'string' || !bankName.trim() || !isSbpBankSchema(schema)) return [];
    const bank: SbpBank = { bankName: bankName.trim(), schema };
    if (typeof package_name === 'string' && ANDROID_PACKAGE.test(package_name)) bank.package_name = package_name;
    if (typeof logoURL === 'string') {
      try {
        const logo = new URL(logoURL, at);
        if (logo.origin === at.origin) bank.logoURL = logo.href;
      } catch {
        // No logo: the name alone.
      }
    }
    return [bank];
  });
}
