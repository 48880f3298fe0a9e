/**
 * Payment ids shaped like the real service's: PHP `uniqid()`, 8 hex digits of Unix seconds followed by 5 of
 * microseconds, 13 lowercase hex digits in all (`66a3942dc1d4f`). Like the real ones they are time-based and
 * guessable, which is why the proxy never lets a payment id alone read a payment. The clock only has
 * milliseconds, so the microsecond part counts up from the last id whenever time has not moved past it: ids stay
 * unique and increasing within one millisecond, and even when the clock steps backwards. The same microsecond is
 * the payment's `created_at`, so that the newest payment of an order can be told by it, as the service's rule says.
 */
import type { Clock } from '../shared/clock.js';

export interface NewId {
  id: string;
  /** The moment the id stands for, in epoch microseconds: the payment's `created_at`. */
  epochMicros: number;
}

export type IdGenerator = () => NewId;

export function createIdGenerator(clock: Clock): IdGenerator {
  let last = 0;
  return () => {
    last = Math.max(Math.floor(clock.now()) * 1000, last + 1);
    return { id: formatUniqid(last), epochMicros: last };
  };
}

/** `uniqid()`'s format for a time in epoch microseconds: `%08x%05x` of seconds and microseconds. */
export function formatUniqid(epochMicros: number): string {
  const seconds = Math.floor(epochMicros / 1_000_000);
  const micros = epochMicros % 1_000_000;
  return seconds.toString(16).padStart(8, '0') + micros.toString(16).padStart(5, '0');
}

export function isPaymentId(value: string): boolean {
  return /^[0-9a-f]{13}$/.test(value);
}
