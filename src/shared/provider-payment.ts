/**
 * The service's Payment object, parsed tolerantly: the spec leaves most of it "not shown", the real service
 * leaves out null fields in callbacks and sends some numbers as strings. Unknown fields are kept (loose objects),
 * amounts are normalised to 2-decimal strings, and only `id` and `state` are required.
 */
import { z } from 'zod';
import { normalizeAmount } from './money.js';

const idText = z.union([z.string().min(1), z.number()]).transform(String);

/** Decimal that may arrive as a number or a string; kept as a normalised 2-decimal string. */
export const amountText = z.union([z.string(), z.number()]).transform((value, ctx) => {
  const normal = normalizeAmount(value);
  if (normal === undefined) {
    ctx.issues.push({ code: 'custom', message: `not an amount with at most 2 decimals: ${JSON.stringify(value)}`, input: value });
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

export const providerPaymentSchema = z.looseObject({
  id: idText,
  state: z.string().min(1),
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
  currency: z.string().optional(),
  rate: looseNumber.optional(),
  commission: looseNumber.optional(),
  method: z.string().optional(),
  media: z.array(z.unknown()).optional(),
  requisites: requisitesSchema.nullish(),
});

export type ProviderPayment = z.infer<typeof providerPaymentSchema>;

/** A callback body is a Payment object. */
export const callbackBodySchema = providerPaymentSchema;
export type CallbackBody = ProviderPayment;
