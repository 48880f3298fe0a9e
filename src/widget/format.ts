/**
 * How numbers reach the shopper: amounts through Intl.NumberFormat for the locale and the payment's currency
 * (the amount stays a decimal string until this last step), and the countdown as m:ss. Formatters are cached:
 * the countdown re-renders every second and Intl constructors are not cheap.
 */

/** Formatters by locale and currency; null for a currency Intl does not know. */
const cache = new Map<string, Intl.NumberFormat | null>();

/** "250.00", "INR", "en-IN" -> "₹250.00"; an unknown currency code is written after the number. */
export function formatAmount(amount: string, currency: string, locale: string): string {
  const key = `${locale}|${currency}`;
  if (!cache.has(key)) {
    try {
      cache.set(key, new Intl.NumberFormat(locale, { style: 'currency', currency: currency.toUpperCase() }));
    } catch {
      cache.set(key, null); // not an ISO 4217 code: shown as text below
    }
  }
  const value = Number(amount);
  const format = cache.get(key);
  return format && Number.isFinite(value) ? format.format(value) : `${amount} ${currency}`.trim();
}

/** Milliseconds left -> "14:59", "1:02:03"; never negative. */
export function formatClock(ms: number): string {
  const total = Math.max(0, Math.ceil(ms / 1000));
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const two = (n: number) => String(n).padStart(2, '0');
  return `${h ? `${h}:${two(m)}` : m}:${two(total % 60)}`;
}
