/**
 * Amounts and times in the operator's locale and time zone (the browser's), through Intl. Amounts as the checkout
 * writes them for the shopper (widget/format.ts), so that both show a payment's amount alike. A time says its zone
 * ("GMT+2"): the night the clocks go back in Europe shows one local hour twice, two payments an hour apart read the
 * same without it, and the CSV export (UTC) is matched against the screen by it.
 */
export { formatAmount } from '../widget/format.js';

export function formatTime(value: string | number | undefined, locale: string): string {
  if (value === undefined) return '—';
  const date = new Date(value);
  if (Number.isNaN(date.getTime())) return String(value);
  return new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeStyle: 'long' }).format(date);
}
