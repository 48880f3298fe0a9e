/**
 * How numbers reach the shopper: amounts through Intl's currency format for the locale and the payment's currency
 * (the amount stays a decimal string until this last step), and the countdown as m:ss. Formatters are kept by
 * locale and currency: the countdown re-renders the amount every second, and making one costs about 50 times
 * using one.
 */

const formatters = new Map<string, Intl.NumberFormat | undefined>();

function currencyFormat(locale: string, currency: string): Intl.NumberFormat | undefined {
  const key = `${locale} ${currency}`;
  if (!formatters.has(key)) {
    const code = currency.toUpperCase();
    // UPI apps write rupees the Indian way (₹12,34,567.50) in English too; an Indian shop's page says en or en-US
    // as often as en-IN, and CLDR's en groups them ₹1,234,567.50.
    const tag = code === 'INR' && /^en\b/i.test(locale) ? 'en-IN' : locale;
    let format: Intl.NumberFormat | undefined;
    try {
      format = new Intl.NumberFormat(tag, { style: 'currency', currency: code });
    } catch {
      // Not an ISO 4217 code (or a locale Intl refuses): the amount is shown as text.
    }
    formatters.set(key, format);
  }
  return formatters.get(key);
}

/** "250.00", "INR", "en-IN" -> "₹250.00"; an unknown currency code is written after the number. */
export function formatAmount(amount: string, currency: string, locale: string): string {
  const value = Number(amount);
  const format = Number.isFinite(value) ? currencyFormat(locale, currency) : undefined;
  return format ? format.format(value) : `${amount} ${currency}`.trim();
}

/** Milliseconds left -> "14:59", "1:02:03"; never negative. */
export function formatClock(ms: number): string {
  const total = Math.max(0, Math.ceil(ms / 1000));
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const two = (n: number) => String(n).padStart(2, '0');
  return `${h ? `${h}:${two(m)}` : m}:${two(total % 60)}`;
}
