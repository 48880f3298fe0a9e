/**
 * The service's Payment object, parsed tolerantly: the spec leaves most of it "not shown", the real service
 * leaves out null fields in callbacks (and writes them as null elsewhere), sends some numbers as strings, writes a
 * currency in lower case and an amount the way its locale does. Unknown fields are kept (loose objects), amounts
 * are normalised to 2-decimal strings (service-amount.ts), currencies to upper case, and only `id` and `state`
 * are required.
 */
import { z } from 'zod';
import { readServiceAmount } from './service-amount.js';

const idText = z.union([z.string().min(1), z.number()]).transform(String);

/** Decimal that may arrive as a number or a string; kept as a normalised 2-decimal string. */
export const amountText = z.union([z.string(), z.number()]).transform((value, ctx) => {
  const normal = readServiceAmount(value);
  if (normal === undefined) {
    ctx.issues.push({
      code: 'custom',
      message: `not an amount of at most 13 whole digits and 2 decimals: ${JSON.stringify(value)}`,
      input: value,
    });
    return z.NEVER;
  }
  return normal;
});

const looseNumber = z.union([z.number(), z.string()]).transform((value) => (typeof value === 'number' ? value : Number(value)));

const looseBoolean = z
  .union([z.boolean(), z.number(), z.string()])
  .transform((value) => value === true || value === 1 || value === 'true' || value === '1');

export const requisitesSchema = z.looseObject({
  address: z.string(),
  recipient: z.string().optional(),
  bank: z.string().optional(),
});

/** "FINISHED" and " in_check" are the service's states as its table writes them: read otherwise, a paid one is never paid. */
export const stateText = z.string().trim().toLowerCase().min(1);

/** "inr" and " INR " are the code INR: compared with the shop's price, they must not read as another currency. */
const currencyCode = z.string().transform((value) => value.trim().toUpperCase());

/**
 * Fields a Payment may carry as null where it has no value: read as left out, as a callback leaves them. Not
 * `amount`, which every payment has: a null one is unreadable, never the price by default (a wrong "paid"). And
 * not `status`: a null flag has not said paid, so it reads as false (payment-view-mapper.ts, unconfirmedFinish).
 */
function withoutNulls(value: unknown): unknown {
  if (!value || typeof value !== 'object' || Array.isArray(value)) return value;
  const out: Record<string, unknown> = {};
  for (const [key, field] of Object.entries(value)) {
    if (field !== null || key === 'amount') out[key] = field;
    else if (key === 'status') out[key] = false;
  }
  return out;
}

const paymentFields = z.looseObject({
  id: idText,
  state: stateText,
  orderId: idText.optional(),
  datetime: z.union([z.number(), z.string()]).optional(),
  created_at: z.string().optional(),
  expired_at: z.string().optional(),
  status: looseBoolean.optional(),
  type: z.string().optional(),
  userId: idText.optional(),
  amount: amountText.optional(),
  init_amount: amountText.optional(),
  amount_commission_less: looseNumber.optional(),
  currency: currencyCode.optional(),
  rate: looseNumber.optional(),
  commission: looseNumber.optional(),
  method: z.string().optional(),
  media: z.array(z.unknown()).optional(),
  requisites: requisitesSchema.optional(),
});

export const providerPaymentSchema = z.preprocess(withoutNulls, paymentFields);

export type ProviderPayment = z.infer<typeof providerPaymentSchema>;

/** A callback body is a Payment object. */
export const callbackBodySchema = providerPaymentSchema;
export type CallbackBody = ProviderPayment;
