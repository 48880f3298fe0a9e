/**
 * Which failures of a run the log says: the 1st, 2nd, 4th, 8th... A shop's hook or webhook that is down is retried
 * every 5 minutes at most, for hours, and a line each wrote 12 an hour for every payment waiting, burying the line
 * about anything else; this way a day of it is about 10 lines, and the count in each says how long it has gone on.
 * The proxy's outbox and the standalone server's webhooks both say their failures so.
 */

/** True for the `count`th failure (1-based) that is said: a power of two. */
export function isLoggedFailure(count: number): boolean {
  return (count & (count - 1)) === 0;
}
