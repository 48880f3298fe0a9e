/**
 * An amount as the payment service writes it, which is looser than a shop's price: besides "1499.00" and 1499 it
 * may group the thousands with a space ("1 499.00", a no-break space as Russian locales write it) or a comma
 * ("1,499.00"), write the decimals after a comma ("1 499,00"), or write zeros past the cents as a decimal column of
 * four places does ("1499.0000"). A signed answer that cannot be read is refused whole, and the payment it
 * describes then stands still, so each spelling that reads one way only is read here.
 * Any that could read two ways ("1,499": 1499, or 1.499 in a locale with a decimal comma; "1.499,00") stays
 * unreadable: an amount misread is a wrong "paid" or a wrong "underpaid". A shop's own price is read strictly
 * (money.ts); this is for what the service says.
 */
import { normalizeAmount, withoutZerosPastCents } from './money.js';

/** A space, a no-break space, a narrow no-break space or a thin space: what locales group thousands with. */
const GROUP_SPACE = '[ \\u00a0\\u202f\\u2009]';

/** "1 499", "1 499.00", "1 499,00", "1 499,5": spaces between 3-digit groups, either decimal mark. */
const SPACE_GROUPED = new RegExp(`^(\\d{1,3}(?:${GROUP_SPACE}\\d{3})+)(?:[.,](\\d{1,2}))?$`);
/** "1,499.00": commas between 3-digit groups only with a decimal point after them, or "1,499" reads two ways. */
const COMMA_GROUPED = /^(\d{1,3}(?:,\d{3})+)\.(\d{1,2})$/;
/** "499,00", "499,5": a decimal comma and no grouping. */
const DECIMAL_COMMA = /^(\d+),(\d{1,2})$/;

/** The amount as a 2-decimal string ("1499.00"), or undefined when it is no amount or reads two ways. */
export function readServiceAmount(value: unknown): string | undefined {
  const strict = normalizeAmount(withoutZerosPastCents(value));
  if (strict !== undefined || typeof value !== 'string') return strict;
  const text = value.trim();
  const m = SPACE_GROUPED.exec(text) ?? COMMA_GROUPED.exec(text) ?? DECIMAL_COMMA.exec(text);
  if (!m) return undefined;
  const whole = m[1]!.replace(/\D/g, '');
  return normalizeAmount(m[2] === undefined ? whole : `${whole}.${m[2]}`);
}
