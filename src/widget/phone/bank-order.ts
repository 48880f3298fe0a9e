/**
 * The order of the SBP bank chooser: the shopper's last bank first, the others as the proxy ordered them (the
 * largest banks first). Its search (bank-search.ts) only leaves banks out, so this order holds for what it finds.
 * Only the chooser needs this, so it travels in the SBP banks part.
 */
import type { SbpBank } from './deep-links.js';

/** The shopper's last bank first, the others as the proxy ordered them. */
export function rankBanks(banks: readonly SbpBank[], last: string | undefined): SbpBank[] {
  const mine = banks.find((b) => b.schema === last);
  return mine ? [mine, ...banks.filter((b) => b !== mine)] : [...banks];
}
