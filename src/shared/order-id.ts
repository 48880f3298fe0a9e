/**
 * Which order ids can be sent to the service exactly as the shop priced them. The id the shop's resolveOrder
 * saw must reach the service byte for byte: trimming or normalising it would create the payment under another
 * id, and a second payment for the same order could follow. So an id that could not travel unchanged is
 * refused, never rewritten: surrounding whitespace, control characters, lone surrogates (not valid UTF-8), or
 * more than 128 characters.
 */

export const MAX_ORDER_ID_LENGTH = 128;

/** C0 and C1 controls, DEL, and the line and paragraph separators. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is the point
export const CONTROL_CHARACTER = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/;

/** Why `value` cannot be sent as an order id unchanged, or undefined when it can. */
export function orderIdProblem(value: string): string | undefined {
  if (value.length === 0) return 'is empty';
  if (value.length > MAX_ORDER_ID_LENGTH) return `is longer than ${MAX_ORDER_ID_LENGTH} characters`;
  if (value.trim() !== value) return 'has leading or trailing whitespace';
  if (CONTROL_CHARACTER.test(value)) return 'contains a control character';
  if (!isWellFormed(value)) return 'contains a lone surrogate (not valid UTF-8)';
  return undefined;
}

/** String.prototype.isWellFormed where the runtime has it, else the same check by hand. */
function isWellFormed(value: string): boolean {
  const native = (value as { isWellFormed?: () => boolean }).isWellFormed;
  if (typeof native === 'function') return native.call(value);
  return !/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/.test(value);
}
