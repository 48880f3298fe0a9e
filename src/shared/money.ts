/**
 * Money as 2-decimal strings, never floats: "250.00". The service sends amounts as strings, numbers or
 * numbers-as-strings; everything is normalised here through decimal text, so 0.1 + 0.2 never happens to a price.
 */

/**
 * At most 13 whole digits (9999999999999.99; zeros before them do not count): 15 significant digits are the most
 * that every layer holds exactly, a double (the service's JSON numbers, the page's Intl.NumberFormat) and minor
 * units below 2^53 (toMinorUnits). Past them "99999999999999.98" and "99999999999999.99" were one number: a paisa
 * short was paid, and the page showed another sum than the one asked.
 */
const AMOUNT = /^0*(\d{1,13})(?:\.(\d{1,2}))?$/;

/**
 * How far a number may be from its 2-decimal text: a float's own error (0.1 + 0.2 is 0.30000000000000004) is a
 * few units in its last place; more is decimals the currency does not have (499.9999999999 is no 500.00). Never
 * past a hundredth of a paisa, which a large amount's last place would allow.
 */
const FLOAT_ERROR = (value: number) => Math.min(8 * Number.EPSILON * value, 1e-4);

/** "250" | 250 | "250.5" -> "250.50"; undefined for anything but a non-negative amount of <= 13 digits, <= 2 decimals. */
export function normalizeAmount(value: unknown): string | undefined {
  let text: string;
  if (typeof value === 'number') {
    if (!Number.isFinite(value) || value < 0) return undefined;
    text = value.toFixed(2);
    if (Math.abs(Number(text) - value) > FLOAT_ERROR(value)) return undefined;
  } else if (typeof value === 'string') {
    text = value.trim();
  } else {
    return undefined;
  }
  const m = AMOUNT.exec(text);
  if (!m) return undefined;
  return `${m[1]}.${(m[2] ?? '').padEnd(2, '0')}`;
}

export function isAmount(value: unknown): value is string {
  return typeof value === 'string' && normalizeAmount(value) === value;
}

/** Minor units (paise, kopecks) as an integer: "250.05" -> 25005. Throws on a malformed amount. */
export function toMinorUnits(amount: string): number {
  const normal = normalizeAmount(amount);
  if (normal === undefined) throw new RangeError(`Not an amount: ${JSON.stringify(amount)}`);
  const [whole, frac] = normal.split('.') as [string, string];
  return Number(whole) * 100 + Number(frac);
}

export function fromMinorUnits(minor: number): string {
  if (!Number.isSafeInteger(minor) || minor < 0) throw new RangeError(`Not a minor-unit amount: ${minor}`);
  return `${Math.floor(minor / 100)}.${String(minor % 100).padStart(2, '0')}`;
}

/** A positive amount: the only kind a payment can be created for. */
export function isPositiveAmount(amount: string): boolean {
  const normal = normalizeAmount(amount);
  return normal !== undefined && toMinorUnits(normal) > 0;
}

/** What chargeablePrice takes, in the words of the errors that refuse a price. */
const CHARGEABLE_PRICE =
  'a positive amount of at most 13 whole digits and 2 decimals, none that its currency lacks (JPY 499.50), and a 3-letter currency code';

/** The words of an error that refuses `price`: the amount and currency as they came, and what chargeablePrice takes. */
export function unchargeableNote(price: { amount?: unknown; currency?: unknown }): string {
  return `amount ${JSON.stringify(price.amount)}, currency ${JSON.stringify(price.currency)} (${CHARGEABLE_PRICE})`;
}

const currencyDigits = new Map<string, number>();

/**
 * The decimals Intl's currency format, which the page shows amounts with, writes a currency with (CLDR's, not
 * always ISO 4217's): 0 for JPY, KRW, HUF, IDR and PKR, 2 for INR and RUB, 3 for KWD; 2 for a code it does not know.
 */
function decimalsOf(currency: string): number {
  let digits = currencyDigits.get(currency);
  if (digits === undefined) {
    try {
      digits = new Intl.NumberFormat('en', { style: 'currency', currency }).resolvedOptions().maximumFractionDigits ?? 2;
    } catch {
      digits = 2;
    }
    currencyDigits.set(currency, digits);
  }
  return digits;
}

/**
 * False when an amount has a decimal its currency is not written with: the page (Intl's currency format)
 * showed "499.50" yen as ¥500 and "499.50" Pakistani rupees as Rs 500, while the service was asked 499.50.
 * "499.00" yen is ¥499. Only the digits after the point count, so that a sum written without them ("250", as the
 * service's create takes it) is whole, and not read as if its last two digits were cents.
 */
export function fitsCurrency(amount: string, currency: string): boolean {
  const digits = decimalsOf(currency);
  const fraction = /\.(\d*)$/.exec(amount)?.[1] ?? '';
  return digits >= 2 || /^0*$/.test(fraction.slice(digits));
}

/**
 * A shop's price as a payment can be made for it: a positive amount of at most 13 whole digits and 2 decimals, none
 * that its currency is not written with (normalised, "499" is "499.00"; never rounded), and a 3-letter currency
 * code, in upper case as the service takes it ("inr", as Stripe writes codes, is "INR"); undefined when it is no
 * such price.
 */
export function chargeablePrice(price: { amount?: unknown; currency?: unknown }): { amount: string; currency: string } | undefined {
  const amount = normalizeAmount(withoutZerosPastCents(price.amount));
  const currency = typeof price.currency === 'string' ? price.currency.trim().toUpperCase() : undefined;
  if (amount === undefined || !isPositiveAmount(amount) || currency === undefined || !/^[A-Z]{3}$/.test(currency)) return undefined;
  if (!fitsCurrency(amount, currency)) return undefined;
  return { amount, currency };
}

/**
 * "499.0000" is 499.00 exactly: a decimal column of four places (Magento's prices, a Django DecimalField, a
 * service's own table) writes its sums so. Only zeros go; "1.2340" keeps its third decimal and stays no amount.
 */
export function withoutZerosPastCents(amount: unknown): unknown {
  return typeof amount === 'string' ? amount.replace(/^(\s*\d+\.\d\d)0+(\s*)$/, '$1$2') : amount;
}
