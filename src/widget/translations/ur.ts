/**
 * Urdu (اردو), written right to left: the element mirrors its layout. What is written left to right inside a
 * sentence (an amount, a phone number, a bank's Latin or Cyrillic name) is wrapped in Unicode isolates, so that
 * the bidirectional algorithm cannot scatter its digits and signs into the Urdu words around it.
 */
import { plural, type Translation } from './translation.js';

/**
 * Left-to-right isolate (LRI ... PDI) around a value that is always written left to right, and never broken at a
 * space or after a hyphen (a no-break space, a word joiner): over two lines, a left-to-right run inside
 * right-to-left ones would end the first line at its left edge and begin the next at its right edge, scattering a
 * phone number ("+7 900 123-" on one side, "45-67" on the other).
 */
const ltr = (text: string) => `\u2066${text.replaceAll(' ', '\u00a0').replaceAll('-', '-\u2060')}\u2069`;
/** First-strong isolate (FSI ... PDI): a name takes the direction of its own script. */
const own = (text: string) => `\u2068${text}\u2069`;

export const ur: Translation = {
  locale: 'ur',
  dir: 'rtl',
  // CLDR groups Urdu amounts the Western way (ur) or in Eastern Arabic digits (ur-IN); UPI apps write ₹12,34,567.50.
  amountLocale: 'en-IN',
  headings: {
    start: 'ادائیگی',
    choose: 'ادائیگی کا طریقہ منتخب کریں',
    loading: 'ادائیگی کی تفصیلات تیار ہو رہی ہیں…',
    preparing: 'ادائیگی کی تفصیلات تیار ہو رہی ہیں…',
    pay: 'ٹرانسفر سے ادائیگی کریں',
    checking: 'آپ کی ادائیگی کی جانچ ہو رہی ہے',
    late: 'وقت ختم',
    paid: 'ادائیگی موصول ہو گئی',
    underpaid: 'ادائیگی نامکمل ہے',
    superseded: 'رقم بدل گئی ہے',
    expired: 'وقت ختم ہو گیا',
    failed: 'ادائیگی ناکام رہی',
    error: 'کچھ غلط ہو گیا',
  },
  payButton: 'ادائیگی کریں',
  methods: { c2c: 'کارڈ پر ٹرانسفر' },
  amountLabel: 'رقم',
  address: { upi: 'UPI ID', sbp: 'فون نمبر', c2c: 'کارڈ نمبر', other: 'اکاؤنٹ' },
  recipientLabel: 'وصول کنندہ',
  bankLabel: 'بینک',
  copy: 'کاپی کریں',
  copied: 'کاپی ہو گیا',
  copyLast: true,
  qrLabel: 'اس ادائیگی کا QR کوڈ؛ یہی تفصیلات ساتھ لکھی ہیں۔',
  scanHint: 'فون کے کیمرے یا ادائیگی ایپ سے اسکین کریں۔',
  openApp: 'ادائیگی ایپ میں کھولیں',
  chooseApp: 'اس ایپ سے ادائیگی کریں',
  anyUpiApp: 'کوئی بھی UPI ایپ',
  otherUpiApp: 'دوسری UPI ایپ',
  didntOpen: 'نہیں کھلا؟ کوئی دوسری ایپ یا ڈیوائس آزمائیں۔',
  otherDevice: 'دوسری ڈیوائس سے ادائیگی کریں',
  otherDeviceHint: 'وہاں اسکین کریں، یا محفوظ کر کے ادائیگی ایپ میں گیلری سے منتخب کریں۔',
  shareQr: 'QR کوڈ شیئر کریں',
  saveQr: 'QR کوڈ محفوظ کریں',
  chooseBank: 'اپنا بینک منتخب کریں',
  findBank: 'بینک تلاش کریں',
  noBank: 'ایسا کوئی بینک نہیں۔',
  banksFound: (count) => `ملنے والے بینک: ${count}`,
  sbpPhoneHint: (phone) => `بینک منتخب کرتے ہی نمبر کاپی ہو جائے گا: SBP سے ${ltr(phone)} پر بھیجیں۔`,
  hints: {
    checking: 'یہ صفحہ کھلا رکھیں۔',
    late: 'اگر آپ ادائیگی کر چکے ہیں تو دوبارہ نہ کریں: ہم ابھی جانچ رہے ہیں۔',
    underpaid: 'آرڈر کی پوری ادائیگی نہیں ہوئی۔ براہ کرم دکان سے رابطہ کریں: یہاں دوبارہ ادائیگی نہ کریں۔',
    superseded:
      'آرڈر کی رقم اب بدل گئی ہے، اس لیے یہ تفصیلات اب درست نہیں۔ نئی رقم ادا کرنے کے لیے دوبارہ شروع کریں؛ اگر آپ ان تفصیلات پر ادائیگی کر چکے ہیں تو دکان سے رابطہ کریں۔',
    expired: 'یہ تفصیلات اب درست نہیں: ان پر رقم نہ بھیجیں۔',
    failed: 'اگر آپ نے رقم بھیجی ہے تو براہ کرم دکان سے رابطہ کریں۔',
  },
  sbpInstruction: (bank) => `اپنی بینک ایپ میں SBP سے اس فون نمبر پر ٹرانسفر کریں${bank ? `، ${own(bank)} منتخب کریں` : ''}۔`,
  instruction: 'ان تفصیلات پر بالکل یہی رقم ٹرانسفر کریں۔',
  timeLeft: 'باقی وقت',
  minutesLeft: (n) => plural('ur', n, { one: '# منٹ باقی ہے', other: '# منٹ باقی ہیں' }),
  secondsLeft: (n) => plural('ur', n, { one: '# سیکنڈ باقی ہے', other: '# سیکنڈ باقی ہیں' }),
  paidAmount: (amount) => `${ltr(amount)} ادا ہو گئے۔`,
  paidDifferent: (paid, asked) => `${ltr(paid)} ادا ہوئے (آرڈر ${ltr(asked)} کا تھا)۔`,
  underpaidAmount: (paid, asked) => `${ltr(asked)} میں سے ${ltr(paid)} موصول ہوئے۔`,
  startAgain: 'دوبارہ شروع کریں',
  otherMethod: 'دوسرا طریقہ منتخب کریں',
  errors: {
    network: 'کنکشن نہیں ہے۔ انٹرنیٹ چیک کریں اور دوبارہ کوشش کریں۔',
    paid: 'اس آرڈر کی ادائیگی ہو چکی ہے۔',
    setup: 'یہ چیک آؤٹ ٹھیک سے سیٹ نہیں ہے۔ براہ کرم دکان کو بتائیں۔',
    refused: 'اس آرڈر کی ادائیگی ابھی یہاں نہیں ہو سکتی۔ صفحہ دوبارہ لوڈ کریں؛ پھر بھی نہ ہو تو براہ کرم دکان کو بتائیں۔',
    other: 'ادائیگی سروس جواب نہیں دے رہی۔ تھوڑی دیر میں دوبارہ کوشش کریں۔',
  },
  retry: 'دوبارہ کوشش کریں',
  connectionTrouble: 'کنکشن ٹوٹ گیا۔ دوبارہ کوشش ہو رہی ہے…',
  followStopped: 'ابھی تک تصدیق نہیں ہوئی۔',
  checkNow: 'دوبارہ چیک کریں',
};
