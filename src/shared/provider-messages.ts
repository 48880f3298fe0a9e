/**
 * The messages around the Payment object: what we send (strict: unknown fields refused, amounts as 2-decimal
 * strings) and what comes back (tolerant: both create-answer shapes the provider is known to send, an object or an array
 * from status, and the `{status: false, code, message}` failure).
 */
import { z } from 'zod';
import { fitsCurrency, isPositiveAmount } from './money.js';
import { orderIdProblem } from './order-id.js';
import { amountText, providerPaymentSchema, stateText, type ProviderPayment } from './provider-payment.js';

// What we send is checked, never rewritten: a trimmed id would be another id.
const nonEmpty = (field: string) => z.string({ error: `${field} must be a string` }).refine((v) => v.trim() !== '', `${field} is required`);

export const createPaymentRequestSchema = z
  .strictObject({
    amount: z
      .string({ error: 'amount must be a string such as "250.00"' })
      .regex(/^\d{1,13}(\.\d{1,2})?$/, 'amount must be a decimal string of at most 13 whole digits and 2 fraction digits, such as "250.00"')
      .refine(isPositiveAmount, 'amount must be greater than zero'),
    // Checked, never transformed: the id the shop priced is the id the service gets.
    orderId: z.string({ error: 'orderId must be a string' }).superRefine((value, ctx) => {
      const problem = orderIdProblem(value);
      if (problem) ctx.addIssue({ code: 'custom', message: `orderId ${problem}` });
    }),
    currency: z.string({ error: 'currency must be a string' }).regex(/^[A-Z]{3}$/, 'currency must be a 3-letter code such as "INR"'),
    method: nonEmpty('method').max(32, 'method is longer than 32 characters'),
    merchantId: nonEmpty('merchantId'),
    callbackUri: z.url({ protocol: /^https?$/, error: 'callbackUri must be an http(s) URL' }),
    successUri: z.url({ protocol: /^https?$/ }).optional(),
    failUri: z.url({ protocol: /^https?$/ }).optional(),
    payer: z.strictObject({ userId: z.string().optional(), userIp: z.string().optional() }).optional(),
  })
  .refine((request) => fitsCurrency(request.amount, request.currency), {
    message: 'amount has decimals its currency does not (JPY has none: "499.00", never "499.50")',
    path: ['amount'],
  });

export type CreatePaymentRequest = z.infer<typeof createPaymentRequestSchema>;

const idList = z.array(nonEmpty('id')).min(1).max(100);

/** merchantId plus exactly one of paymentId, orderId, paymentIds, orderIds. */
export const statusRequestSchema = z
  .strictObject({
    merchantId: nonEmpty('merchantId'),
    paymentId: nonEmpty('paymentId').optional(),
    orderId: nonEmpty('orderId').optional(),
    paymentIds: idList.optional(),
    orderIds: idList.optional(),
  })
  .refine(
    (r) => [r.paymentId, r.orderId, r.paymentIds, r.orderIds].filter((v) => v !== undefined).length === 1,
    'give exactly one of paymentId, orderId, paymentIds, orderIds',
  );

export type StatusRequest = z.infer<typeof statusRequestSchema>;

export const providerErrorSchema = z.looseObject({
  status: z.literal(false),
  code: z.union([z.number(), z.string()]).optional(),
  message: z.string().optional(),
});

export type ProviderError = z.infer<typeof providerErrorSchema>;

/** The documented envelope: the result may carry the requisites flat (address, bank, recipient). */
const createEnvelopeSchema = z.looseObject({
  status: z.literal(true),
  result: z.looseObject({
    id: z.union([z.string().min(1), z.number()]).transform(String),
    state: stateText.nullish(),
    amount: amountText.nullish(),
    // Empty or null until the service assigns a payee.
    address: z.string().nullish(),
    bank: z.string().nullish(),
    bankName: z.string().nullish(),
    recipient: z.string().nullish(),
  }),
  url: z.string().nullish(),
});

export interface CreateAnswer {
  /** What the answer told us; fields it lacked stay undefined (complete them with a status call). */
  payment: Partial<ProviderPayment> & Pick<ProviderPayment, 'id' | 'state'>;
  /** Hosted payment page, when the envelope has one. */
  url?: string;
  /** True when the answer lacked fields the browser needs (the envelope has no expiry). */
  incomplete: boolean;
}

export type Parsed<T> = { ok: true; value: T } | { ok: false; error: string };

function issues(error: z.ZodError): string {
  return error.issues.map((i) => (i.path.length ? `${i.path.join('.')}: ${i.message}` : i.message)).join('; ');
}

/** Either shape of a successful create answer, or a failure with the reason. */
export function parseCreateAnswer(body: unknown): Parsed<CreateAnswer> {
  if (body && typeof body === 'object' && (body as { status?: unknown }).status === false) {
    const err = providerErrorSchema.safeParse(body);
    const e = err.success ? err.data : { code: undefined, message: undefined };
    return { ok: false, error: `service refused the payment (code ${e.code ?? 'none'}): ${e.message ?? 'no message'}` };
  }
  const envelope = createEnvelopeSchema.safeParse(body);
  if (envelope.success) {
    const r = envelope.data.result;
    const { address, bank, bankName, recipient, amount, ...rest } = r;
    const payment: CreateAnswer['payment'] = { ...rest, id: r.id, state: r.state || 'created' };
    if (amount) payment.amount = amount;
    if (address) {
      payment.requisites = { address };
      if (recipient) payment.requisites.recipient = recipient;
      if (bank || bankName) payment.requisites.bank = (bank || bankName)!;
    }
    const answer: CreateAnswer = { payment, incomplete: true };
    if (envelope.data.url) answer.url = envelope.data.url;
    return { ok: true, value: answer };
  }
  const bare = providerPaymentSchema.safeParse(body);
  if (bare.success) {
    const p = bare.data;
    const incomplete = !p.expired_at || !p.created_at || !p.amount || !p.currency || !p.method;
    return { ok: true, value: { payment: p, incomplete, ...(typeof p.url === 'string' ? { url: p.url } : {}) } };
  }
  return { ok: false, error: `unexpected create answer: ${issues(bare.error)}` };
}

/** A status answer: one Payment or an array of them. Looked up by order, the newest (created_at) wins. */
export function parseStatusAnswer(body: unknown): Parsed<ProviderPayment[]> {
  if (body && typeof body === 'object' && (body as { status?: unknown }).status === false && !('id' in body)) {
    const err = providerErrorSchema.safeParse(body);
    const e = err.success ? err.data : { code: undefined, message: undefined };
    return { ok: false, error: `service refused the status request (code ${e.code ?? 'none'}): ${e.message ?? 'no message'}` };
  }
  const list = z.union([providerPaymentSchema, z.array(providerPaymentSchema)]).safeParse(body);
  if (!list.success) return { ok: false, error: `unexpected status answer: ${issues(list.error)}` };
  return { ok: true, value: Array.isArray(list.data) ? list.data : [list.data] };
}

/** A status answer about several payments, each read on its own (see parseStatusList). */
export interface StatusList {
  payments: ProviderPayment[];
  /** The payments of the answer that could not be read, by id, with why. */
  unreadable: { id: string; error: string }[];
}

/**
 * A status answer about several payments (a reconcile batch), each entry read on its own, so that one payment the
 * service describes in a way the proxy cannot read leaves the others readable. Fails as parseStatusAnswer does when
 * an unreadable entry has no id to name it by: which payment it describes is then unknown.
 */
export function parseStatusList(body: unknown): Parsed<StatusList> {
  const whole = parseStatusAnswer(body);
  if (whole.ok) return { ok: true, value: { payments: whole.value, unreadable: [] } };
  if (!Array.isArray(body)) return whole;
  const list: StatusList = { payments: [], unreadable: [] };
  for (const entry of body) {
    const one = providerPaymentSchema.safeParse(entry);
    if (one.success) {
      list.payments.push(one.data);
      continue;
    }
    const id = entryId(entry);
    if (id === undefined) return whole;
    list.unreadable.push({ id, error: issues(one.error) });
  }
  return { ok: true, value: list };
}

function entryId(entry: unknown): string | undefined {
  const id = entry && typeof entry === 'object' ? (entry as { id?: unknown }).id : undefined;
  if (typeof id === 'number' && Number.isFinite(id)) return String(id);
  return typeof id === 'string' && id !== '' ? id : undefined;
}

export function parseCallbackBody(body: unknown): Parsed<ProviderPayment> {
  const parsed = providerPaymentSchema.safeParse(body);
  return parsed.success ? { ok: true, value: parsed.data } : { ok: false, error: `malformed callback: ${issues(parsed.error)}` };
}

export { issues as describeIssues };
