/**
 * The search of the SBP bank chooser. The NSPK list names its banks in Cyrillic («Сбербанк», «Т-Банк»), but many
 * shoppers' keyboards are on Latin letters: they type "sber", "alfa", "vtb", or the bank's old name, "tinkoff".
 * Both the query and the names are folded to one form (case, ё/е, spaces, hyphens and punctuation aside):
 *
 * - a query in Cyrillic is compared with the names as they are, so it finds what it always found;
 * - a query with Latin letters is compared with the names transliterated (the scheme of Russian passports, with
 *   the spellings shoppers use as well: "y" or "i" for й/ы, "ph" or "f", "h" or "kh") and with the words of the
 *   bank app's Android package (`com.idamob.tinkoff.android`), the one place where the list itself carries a
 *   bank's Latin or former name;
 * - when that finds nothing, the keys typed are read on the Russian layout: "cf,th" is «сбер» typed by a shopper
 *   who forgot to switch the keyboard.
 */
import type { SbpBank } from './deep-links.js';

/** Case, ё/е and everything but letters and digits aside. */
const plain = (s: string) =>
  s
    .toLowerCase()
    .replace(/ё/g, 'е')
    .replace(/[^\p{L}\p{N}]/gu, '');

/** The Latin of а to я, in the order of their code points (ё is folded to е first); ъ and ь are not typed. */
const LATIN = 'a b v g d e zh z i i k l m n o p r s t u f kh ts ch sh shch  y  e iu ia'.split(' ');
const A = 0x430;

/** The Latin form of a name, a package's word or a query; spellings that differ only by scheme fold together. */
export function latinForm(s: string): string {
  return [...plain(s)]
    .map((c) => LATIN[c.charCodeAt(0) - A] ?? c)
    .join('')
    .replace(/y/g, 'i')
    .replace(/ph/g, 'f')
    .replace(/kh/g, 'h');
}

/** The keys of а to я on the Russian (ЙЦУКЕН) layout, as a Latin (QWERTY) one names them. */
const KEYS = "f,dult;pbqrkvyjghcnea[wxio]sm'.z";

/** Keys whose capital on the Russian layout (Б, Ю, Ж, Э, Х, Ъ) a Latin one names by another sign, with Shift. */
const SHIFTED = '<>:"{}';
const UNSHIFTED = ",.;'[]";

/** What `keys`, typed on a Latin layout, would have been on the Russian one ("N-<fyr" is «т-банк»). */
export function onRussianLayout(keys: string): string {
  return [...keys.toLowerCase()]
    .map((c) => UNSHIFTED[SHIFTED.indexOf(c)] ?? c)
    .map((c) => (KEYS.includes(c) ? String.fromCharCode(A + KEYS.indexOf(c)) : c))
    .join('');
}

/** Whether `bank` is what a query with no Latin letter asks for. */
const asCyrillic = (bank: SbpBank, query: string) => plain(bank.bankName).includes(plain(query));

/** Whether `bank` is what a query with Latin letters asks for: its name, or the start of a word of its package. */
function asLatin(bank: SbpBank, query: string): boolean {
  const wanted = latinForm(query);
  // The first word of a package is its domain's top level (ru, com), which every bank's app shares.
  const words = bank.package_name?.split('.').slice(1) ?? [];
  return latinForm(bank.bankName).includes(wanted) || words.some((word) => latinForm(word).startsWith(wanted));
}

/**
 * The test that the chooser keeps the banks by, for what the shopper typed into its search: the query as typed,
 * or, when that finds none of `banks`, the same keys on the Russian layout.
 */
export function bankSearch(query: string, banks: readonly SbpBank[]): (bank: SbpBank) => boolean {
  if (!/[a-z]/i.test(query)) return (bank) => asCyrillic(bank, query);
  if (banks.some((bank) => asLatin(bank, query))) return (bank) => asLatin(bank, query);
  const russian = onRussianLayout(query);
  return (bank) => asCyrillic(bank, russian);
}
