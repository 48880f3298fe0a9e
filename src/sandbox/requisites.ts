/**
 * The payee details a payment gets when it turns `pending`, in the shapes the real service hands out: for sbp a
 * Russian mobile number, a recipient name and a bank; for upi a payee VPA and payee name; for c2c a 16-digit card
 * number (Luhn-valid, so that a form that checks it does not balk), a recipient and a bank. All fake, all drawn
 * from the injected randomness so that a test that fixes it gets the same requisites every time.
 */
import { toMinorUnits } from '../shared/money.js';
import { sbpQrLink } from './sbp-qr.js';

/** The methods the sandbox accepts; a create request for any other method is refused with 400. */
export const METHODS = ['sbp', 'upi', 'c2c'] as const;
export type SandboxMethod = (typeof METHODS)[number];

export function isMethod(value: string): value is SandboxMethod {
  return (METHODS as readonly string[]).includes(value);
}

/**
 * The one currency a method's rails carry, where they carry one: SBP moves roubles and UPI rupees, nothing else,
 * so the service cannot make an sbp payment in INR. A card transfer (c2c) is not tied to one currency.
 */
const CURRENCY_OF: Partial<Record<SandboxMethod, string>> = { sbp: 'RUB', upi: 'INR' };

/** Why `currency` cannot be paid by `method`, or undefined when it can. */
export function currencyProblem(method: SandboxMethod, currency: string): string | undefined {
  const only = CURRENCY_OF[method];
  return only && currency !== only ? `currency must be ${only} for ${method}, got ${currency}` : undefined;
}

export interface SandboxRequisites {
  /** A phone number (sbp), a VPA (upi) or a card number (c2c). */
  address: string;
  recipient: string;
  bank: string;
}

/** Russian banks with their (public) SBP member ids, used in the fake QR link. */
const RU_BANKS = [
  { name: 'Sberbank', sbpId: '100000000111' },
  { name: 'T-Bank', sbpId: '100000000004' },
  { name: 'VTB', sbpId: '100000000005' },
  { name: 'Alfa-Bank', sbpId: '100000000008' },
] as const;
const RU_NAMES = ['Ivan P.', 'Anna S.', 'Dmitry K.', 'Olga M.', 'Sergey V.'] as const;
const IN_NAMES = ['Asha Verma', 'Ravi Kumar', 'Priya Sharma', 'Arjun Mehta'] as const;
const IN_BANKS = ['Demo Bank of India', 'Okdemo Payments Bank'] as const;

function pick<T>(list: readonly T[], random: () => number): T {
  return list[Math.min(list.length - 1, Math.floor(random() * list.length))]!;
}

function digits(n: number, random: () => number): string {
  let out = '';
  for (let i = 0; i < n; i++) out += String(Math.min(9, Math.floor(random() * 10)));
  return out;
}

function luhnCheckDigit(body: string): string {
  let sum = 0;
  for (let i = 0; i < body.length; i++) {
    let d = Number(body[body.length - 1 - i]);
    if (i % 2 === 0) d = d * 2 > 9 ? d * 2 - 9 : d * 2;
    sum += d;
  }
  return String((10 - (sum % 10)) % 10);
}

export interface Assigned {
  requisites: SandboxRequisites;
  /** What goes into the payment's `media` (the SBP C2B link, when asked for). */
  media: string[];
}

export function assignRequisites(method: SandboxMethod, amount: string, random: () => number, options: { c2bLink: boolean }): Assigned {
  if (method === 'upi') {
    const handle = Array.from({ length: 4 }, () => pick([...'abcdefghijklmnopqrstuvwxyz0123456789'], random)).join('');
    return {
      requisites: { address: `payee.${handle}@okdemo`, recipient: pick(IN_NAMES, random), bank: pick(IN_BANKS, random) },
      media: [],
    };
  }
  const bank = pick(RU_BANKS, random);
  const recipient = pick(RU_NAMES, random);
  if (method === 'c2c') {
    const body = `2200${digits(11, random)}`;
    return { requisites: { address: body + luhnCheckDigit(body), recipient, bank: bank.name }, media: [] };
  }
  const d = digits(9, random);
  const phone = `+7 9${d.slice(0, 2)} ${d.slice(2, 5)}-${d.slice(5, 7)}-${d.slice(7, 9)}`;
  const media = options.c2bLink ? [sbpQrLink({ bankSbpId: bank.sbpId, kopecks: toMinorUnits(amount), random })] : [];
  return { requisites: { address: phone, recipient, bank: bank.name }, media };
}

export { luhnCheckDigit };
