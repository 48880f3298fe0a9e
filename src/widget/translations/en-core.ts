/**
 * English, the default: what the core draws. The texts of each part's screens are in en-parts.ts; en.ts puts
 * them together.
 */
import type { CoreTexts } from './translation.js';

export const enCore: CoreTexts = {
  locale: 'en',
  headings: {
    start: 'Payment',
    choose: 'Choose how to pay',
    loading: 'Preparing payment details…',
    preparing: 'Preparing payment details…',
    pay: 'Pay by transfer',
    checking: 'Checking your payment',
    late: 'Time is up',
    paid: 'Payment received',
    underpaid: 'Payment incomplete',
    superseded: 'The amount has changed',
    expired: 'Time ran out',
    failed: 'Payment failed',
    error: 'Something went wrong',
  },
  payButton: 'Pay',
  // SBP and UPI: an unknown method is shown in capitals, which is what English calls them; C2C is no word to a shopper.
  methods: { c2c: 'Card transfer' },
  amountLabel: 'Amount',
  address: { upi: 'UPI ID', sbp: 'Phone number', c2c: 'Card number', other: 'Account' },
  recipientLabel: 'Recipient',
  bankLabel: 'Bank',
  copy: 'Copy',
  copied: 'Copied',
  qrLabel: 'QR code of this payment; the same details are written next to it.',
  scanHint: 'Scan with your phone camera or payment app.',
  hints: {
    checking: 'Keep this page open.',
    late: 'If you have already paid, do not pay again: we are still checking.',
    underpaid: 'The order is not paid in full. Please contact the shop: do not pay again here.',
    superseded:
      'The order now has a different amount, so these details are no longer valid. Start again to pay the new amount; if you already paid these details, contact the shop.',
    expired: 'These details are no longer valid: do not transfer to them.',
    failed: 'If you did transfer money, please contact the shop.',
  },
  sbpInstruction: (bank) => `Transfer by SBP to this phone number in your bank app${bank ? `, choose ${bank}` : ''}.`,
  instruction: 'Transfer the exact amount to these details.',
  timeLeft: 'Time left',
  minutesLeft: (n) => `${n} minute${n === 1 ? '' : 's'} left`,
  secondsLeft: (n) => `${n} seconds left`,
  startAgain: 'Start again',
  otherMethod: 'Choose another method',
  errors: {
    network: 'No connection. Check your internet and try again.',
    paid: 'This order is already paid.',
    setup: 'This checkout is not set up correctly. Please tell the shop.',
    refused: 'This order cannot be paid here just now. Reload the page; if that does not help, please tell the shop.',
    other: 'The payment service is not answering. Try again in a moment.',
  },
  retry: 'Try again',
  connectionTrouble: 'Connection lost. Retrying…',
  followStopped: 'No confirmation yet.',
  checkNow: 'Check again',
};
