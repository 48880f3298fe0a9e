/**
 * The service writes UTC timestamps with microseconds (`2024-07-26T10:15:30.123456Z`), which `Date.parse`
 * handles inconsistently across engines. They are parsed here by hand, tolerating a missing `Z`, a space instead
 * of `T`, milliseconds or no fraction, and Unix seconds as a number.
 */

const STAMP = /^(\d{4})-(\d{2})-(\d{2})[T ](\d{2}):(\d{2}):(\d{2})(?:\.(\d{1,9}))?(Z|[+-]\d{2}:?\d{2})?$/;

/** Epoch milliseconds, or undefined when the value is not a timestamp. */
export function parseTimestamp(value: unknown): number | undefined {
  if (typeof value === 'number') return Number.isFinite(value) && value > 0 ? value * 1000 : undefined;
  if (typeof value !== 'string') return undefined;
  const m = STAMP.exec(value.trim());
  if (!m) return undefined;
  const [, y, mo, d, h, mi, s, frac = '', zone = 'Z'] = m;
  const ms = Number(frac.padEnd(3, '0').slice(0, 3));
  let t = Date.UTC(Number(y), Number(mo) - 1, Number(d), Number(h), Number(mi), Number(s), ms);
  if (zone !== 'Z') {
    const sign = zone.startsWith('-') ? -1 : 1;
    const digits = zone.slice(1).replace(':', '');
    t -= sign * (Number(digits.slice(0, 2)) * 60 + Number(digits.slice(2))) * 60_000;
  }
  return Number.isNaN(t) ? undefined : t;
}

/** The service's own shape: `YYYY-MM-DDTHH:MM:SS.ffffffZ`. */
export function formatServiceTimestamp(epochMs: number): string {
  return formatServiceMicros(Math.floor(epochMs) * 1000);
}

/** The service's shape to the microsecond, from epoch microseconds (a whole number, exact below 2^53). */
export function formatServiceMicros(epochMicros: number): string {
  const iso = new Date(Math.floor(epochMicros / 1000)).toISOString(); // 2024-07-26T10:15:30.123Z
  return `${iso.slice(0, 23)}${String(epochMicros % 1000).padStart(3, '0')}Z`;
}

/** The last one written: every answer stamps the time, and many answers fall in the same millisecond. */
let lastIso = { epochMs: Number.NaN, iso: '' };

/** An ISO string for the browser (milliseconds). */
export function toIso(epochMs: number): string {
  if (epochMs !== lastIso.epochMs) lastIso = { epochMs, iso: new Date(epochMs).toISOString() };
  return lastIso.iso;
}
