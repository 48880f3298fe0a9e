/**
 * How numbers reach the shopper: amounts through Intl.NumberFormat for the locale and the payment's currency
 * (the amount stays a decimal string until this last step), and the countdown as m:ss. Formatters are cached:
 * the countdown re-renders every second and Intl constructors are not cheap.
 */

const cache = new Map<string, Intl.NumberFormat>();

function currencyFormat(locale: string, currency: string): Intl.NumberFormat | undefined {
  const key = `${locale}|${currency}`;
  let format = cache.get(key);
  if (!format) {
    try {
      format = new Intl.NumberFormat(locale, { style: 'currency', currency });
    } catch {
      return undefined; // not an ISO 4217 code: shown as text below
    }
    cache.set(key, format);
  }
  return format;
}

/** "250.00", "INR", "en-IN" -> "₹250.00"; an unknown currency code is written after the number. */
export function formatAmount(amount: string, currency: string, locale: string): string {
  const value = Number(amount);
  const format = currencyFormat(locale, currency.toUpperCase());
  if (!format || !Number.isFinite(value)) return `${amount} ${currency}`.trim();
  return format.format(value);
}

/** Milliseconds left -> "14:59", "1:02:03"; never negative. */
export function formatClock(ms: number): string {
  const total = Math.max(0, Math.ceil(ms / 1000));
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const s = String(total % 60).padStart(2, '0');
  return h > 0 ? `${h}:${String(m).padStart(2, '0')}:${s}` : `${m}:${s}`;
}
