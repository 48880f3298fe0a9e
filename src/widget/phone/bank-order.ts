/**
 * The order and the search of the SBP bank chooser: the shopper's last bank first, the others as the proxy
 * ordered them, and a search that forgives case, spaces, quotes and ё/е (a shopper types "альфа" for
 * «Альфа-Банк»). Only the chooser needs this, so it travels in the phone part.
 */
import type { SbpBank } from './deep-links.js';

/** The shopper's last bank first, the others as the proxy ordered them. */
export function rankBanks(banks: readonly SbpBank[], last: string | undefined): SbpBank[] {
  const mine = banks.find((b) => b.schema === last);
  return mine ? [mine, ...banks.filter((b) => b !== mine)] : [...banks];
}

const fold = (s: string) =>
  s
    .toLocaleLowerCase()
    .replace(/ё/g, 'е')
    .replace(/[\s«»"'-]+/g, '');

/** Whether the bank's name contains what the shopper typed (case, spaces, quotes and ё/е aside). */
export function bankMatches(bank: SbpBank, query: string): boolean {
  return fold(bank.bankName).includes(fold(query));
}
