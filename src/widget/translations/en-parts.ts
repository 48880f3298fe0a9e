/**
 * English texts of the parts' screens, each group travelling with its part: in the script-tag build the core has
 * only en-core.ts, and a part's English joins it when the part loads (en.script.ts). Other languages are whole.
 */
import type { PhoneTexts, ResultsTexts, SbpBanksTexts, UpiAppsTexts } from './translation.js';

export const enPhone: PhoneTexts = {
  openApp: 'Open in payment app',
  didntOpen: "Didn't open? Try another app, or pay from another device.",
  otherDevice: 'Pay from another device',
  otherDeviceHint: 'Scan it there, or save it and pick it from the gallery in your payment app.',
  shareQr: 'Share QR code',
  saveQr: 'Save QR code',
};

export const enUpiApps: UpiAppsTexts = {
  chooseApp: 'Pay with',
  anyUpiApp: 'Any UPI app',
  otherUpiApp: 'Other UPI app',
};

export const enSbpBanks: SbpBanksTexts = {
  chooseBank: 'Choose your bank',
  findBank: 'Find your bank',
  noBank: 'No such bank.',
  banksFound: (count) => (count === 1 ? '1 bank' : `${count} banks`),
  sbpPhoneHint: (phone) => `Choosing a bank copies the number: transfer by SBP to ${phone}.`,
};

export const enResults: ResultsTexts = {
  paidAmount: (amount) => `Paid ${amount}.`,
  paidDifferent: (paid, asked) => `Paid ${paid} (the order was for ${asked}).`,
  underpaidAmount: (paid, asked) => `Received ${paid} of ${asked}.`,
};
