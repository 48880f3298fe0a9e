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

/** What `keys`, typed on a Latin layout, would have been on the Russian one. */
export function onRussianLayout(keys: string): string {
  return [...keys.toLowerCase()].map((c) => (KEYS.includes(c) ? String.fromCharCode(A + KEYS.indexOf(c)) : c)).join('');
}

/**
 * The most of a query that is read: longer than any bank's name, and short enough that a page pasted into the
 * field by mistake costs no more than a word. Every bank is compared with the query at each render of the
 * chooser, and a 100,000-character paste took seconds each time on a laptop, more on a phone.
 */
export const MAX_BANK_QUERY = 100;

/** Whether `bank` is what a query with no Latin letter (folded: `plain`) asks for. */
const asCyrillic = (bank: SbpBank, wanted: string) => plain(bank.bankName).includes(wanted);

/** Whether `bank` is what a query with Latin letters (folded: `latinForm`) asks for: its name, or the start of a word of its package. */
function asLatin(bank: SbpBank, wanted: string): boolean {
  // The first word of a package is its domain's top level (ru, com), which every bank's app shares.
  const words = bank.package_name?.split('.').slice(1) ?? [];
  return latinForm(bank.bankName).includes(wanted) || words.some((word) => latinForm(word).startsWith(wanted));
}

/**
 * The test that the chooser keeps the banks by, for what the shopper typed into its search: the query as typed,
 * or, when that finds none of `banks`, the same keys on the Russian layout. The query is folded once, here.
 */
export function bankSearch(typed: string, banks: readonly SbpBank[]): (bank: SbpBank) => boolean {
  const query = typed.slice(0, MAX_BANK_QUERY);
  if (!/[a-z]/i.test(query)) {
    const wanted = plain(query);
    return (bank) => asCyrillic(bank, wanted);
  }
  const latin = latinForm(query);
  if (banks.some((bank) => asLatin(bank, latin))) return (bank) => asLatin(bank, latin);
  const russian = plain(onRussianLayout(query));
  return (bank) => asCyrillic(bank, russian);
}
