/**
 * Every word the shopper reads, as one typed interface: a translation that forgets a string does not compile.
 * Strings that carry values are functions, so that each language orders its own words (and picks its own plural
 * forms through Intl.PluralRules) instead of the code gluing fragments together. Kept short on purpose: English
 * ships in the script-tag build, and each other language is a file loaded on demand.
 */

import type { Screen } from '../views/view-context.js';

/**
 * network: check the connection; paid: nothing to do; setup: tell the shop; refused: the proxy knows no such order
 * or payment for this page (an order token or session that expired, a payment it forgot): reload, else tell the
 * shop; other: try again later.
 */
export type ErrorKind = 'network' | 'paid' | 'setup' | 'refused' | 'other';

/** What the core draws: the first screens of a payment, the waits, the plain final screens and the errors. */
export interface CoreTexts {
  /** A BCP 47 tag for Intl (amounts, plurals). */
  locale: string;
  /** `rtl` for a language written right to left: the element lays itself out mirrored. Absent: left to right. */
  dir?: 'rtl';
  /**
   * The tag amounts are written in, when the language's own writes rupees otherwise than UPI apps do (Latin
   * digits, Indian grouping: ₹12,34,567.50). CLDR gives some Indian languages Western grouping or native digits.
   */
  amountLocale?: string;
  payButton: string;
  /** Names of the methods; an unknown method is shown in capitals. */
  methods: Record<string, string>;
  /** Each screen's heading (the loading and "no requisites yet" screens say the same). */
  headings: Record<Screen, string>;
  amountLabel: string;
  /**
   * Label of the requisites' address: by method (`upi`: the VPA, `sbp`: the phone, `c2c`: the card number, which a
   * bank app takes in another form than an account's), else `other`.
   */
  address: Record<string, string>;
  recipientLabel: string;
  bankLabel: string;
  copy: string;
  copied: string;
  /**
   * `true` in a language that says the verb last: a copy button's name for screen readers then puts the value's
   * label first ("UPI ID कॉपी करें"), where English says "Copy UPI ID". Absent: the verb first.
   */
  copyLast?: true;
  /** The QR's text alternative. */
  qrLabel: string;
  /** Under the QR on a desktop, where a phone scans it. */
  scanHint: string;
  /**
   * What the waits and the final screens say under their heading (`late`: after the expiry, while the payment
   * may still arrive).
   */
  hints: Record<'checking' | 'late' | 'underpaid' | 'superseded' | 'expired' | 'failed', string>;
  /** Without a QR: the one-line instruction for SBP (with the bank to choose) and for everything else. */
  sbpInstruction(bank: string | undefined): string;
  instruction: string;
  timeLeft: string;
  /** What the timer says to screen readers at 5, 2 and 1 minutes and 30 seconds. */
  minutesLeft(n: number): string;
  secondsLeft(n: number): string;
  startAgain: string;
  otherMethod: string;
  errors: Record<ErrorKind, string>;
  retry: string;
  connectionTrouble: string;
  followStopped: string;
  checkNow: string;
}

/** On a phone, the phone part's (parts/phone.ts) layout: the fold with the QR and the link that opens the app. */
export interface PhoneTexts {
  /** The one link that opens the payment app (when the service gave its own). */
  openApp: string;
  /** After a tap that opened no app (the page still visible 2 s later). */
  didntOpen: string;
  /** The fold with the QR on a phone, and its caption. */
  otherDevice: string;
  otherDeviceHint: string;
  shareQr: string;
  saveQr: string;
}

/** On a phone, the UPI app chooser of the upi-apps part. */
export interface UpiAppsTexts {
  /** On a phone: above the UPI app links. */
  chooseApp: string;
  /** The `upi://` link that lets Android pick the app, and the same as the last entry on iOS. */
  anyUpiApp: string;
  otherUpiApp: string;
}

/** On a phone, the SBP bank chooser of the sbp-banks part. */
export interface SbpBanksTexts {
  /** The SBP bank chooser. */
  chooseBank: string;
  findBank: string;
  noBank: string;
  /** How many banks the search kept, said to a screen reader as the shopper types. */
  banksFound(count: number): string;
  /** For a transfer to a phone number: the number is copied when a bank is chosen. */
  sbpPhoneHint(phone: string): string;
}

/** The amounts on the final screens of the results part. */
export interface ResultsTexts {
  paidAmount(amount: string): string;
  paidDifferent(paid: string, asked: string): string;
  underpaidAmount(paid: string, asked: string): string;
}

/**
 * Every text, as each language file implements it. English ships its core texts in the script-tag build and each
 * part's texts in that part (translations/en.script.ts); every other language is one whole file.
 */
export interface Translation extends CoreTexts, PhoneTexts, UpiAppsTexts, SbpBanksTexts, ResultsTexts {}

/** "2 minutes" in any language: `forms` are indexed by the locale's plural category, `#` is the number. */
export function plural(locale: string, n: number, forms: Partial<Record<Intl.LDMLPluralRule, string>>): string {
  return (forms[new Intl.PluralRules(locale).select(n)] ?? forms.other ?? '').replace('#', String(n));
}
