/**
 * The sandbox's payments, in memory, with what a merchant may look up (its own payments, by id or by order) and
 * the views the outside sees. The Payment object is kept in the spec's field order and formats, so that what a
 * status call, a callback and the console show are the same object; only `datetime` is filled in when an answer
 * is written, because it is the time of sending. Nothing survives a restart, and that is the point of a sandbox.
 */
import { isFinalState, type KnownState } from '../shared/outcome.js';
import type { SandboxRequisites } from './requisites.js';

/** The payin states the provider documents: the sandbox only ever uses these. */
export type PaymentState = KnownState;

/** The spec's Payment object, as status answers and callbacks carry it. */
export interface SandboxPayment {
  /** Unix seconds when the answer or callback was sent. */
  datetime: number;
  id: string;
  orderId: string;
  /** `YYYY-MM-DDTHH:MM:SS.ffffffZ`. */
  created_at: string;
  expired_at: string;
  /** True only when the payment is finished (paid). */
  status: boolean;
  state: PaymentState;
  type: 'payin';
  userId: string;
  /** What was paid once paid; 2-decimal string. */
  amount: string;
  /** What the payment was created for. */
  init_amount: string;
  amount_commission_less: number;
  currency: string;
  rate: number;
  commission: number;
  method: string;
  media: string[];
  /** Present once a payee is assigned (state `pending` onwards). */
  requisites?: SandboxRequisites;
}

/** One attempt to deliver one callback. */
export interface CallbackDelivery {
  /** Which callback this attempt belongs to; a duplicate (the `duplicateCallbacks` fault) has its own number. */
  callback: number;
  attempt: number;
  /** The state the callback announced. */
  state: PaymentState;
  /** When the attempt started, ISO, on the sandbox's clock. */
  at: string;
  /** The receiver's HTTP status, when it answered. */
  httpStatus?: number;
  /** Why no answer came (refused, timed out). */
  error?: string;
  /** Wall-clock milliseconds the attempt took. */
  durationMs: number;
  /** True for a 200 answer, the only one the service takes as delivered: no more attempts for this callback. */
  ok: boolean;
  duplicate?: boolean;
}

/** What the console and `sandbox.payments()` show: the Payment plus who owns it and its callbacks. */
export interface SandboxPaymentView extends SandboxPayment {
  merchantId: string;
  callbackUri: string;
  /** Where the payer's app sends them back after paying, and after giving up (the create's optional fields). */
  successUri?: string;
  failUri?: string;
  deliveries: CallbackDelivery[];
}

export interface ReturnUris {
  readonly successUri?: string;
  readonly failUri?: string;
}

export interface PaymentRecord extends ReturnUris {
  readonly merchantId: string;
  readonly callbackUri: string;
  /** Creation order, to tell the newest payment of an order even within one millisecond. */
  readonly seq: number;
  payment: Omit<SandboxPayment, 'datetime'>;
  deliveries: CallbackDelivery[];
}

export class PaymentStore {
  #byId = new Map<string, PaymentRecord>();
  #seq = 0;

  /** Past `maxPayments`, the oldest final payments are forgotten; open ones stay until they end. */
  constructor(private readonly maxPayments = 10_000) {}

  add(merchantId: string, callbackUri: string, payment: Omit<SandboxPayment, 'datetime'>, back: ReturnUris = {}): PaymentRecord {
    const record: PaymentRecord = { ...back, merchantId, callbackUri, seq: ++this.#seq, payment, deliveries: [] };
    this.#byId.set(payment.id, record);
    this.#trim();
    return record;
  }

  #trim(): void {
    // A Map iterates in insertion order: oldest first.
    for (const [id, record] of this.#byId) {
      if (this.#byId.size <= this.maxPayments) return;
      if (isFinalState(record.payment.state)) this.#byId.delete(id);
    }
  }

  get(id: string): PaymentRecord | undefined {
    return this.#byId.get(id);
  }

  /** A payment only if it belongs to this merchant: no merchant ever sees another's. */
  ownedBy(merchantId: string, id: string): PaymentRecord | undefined {
    const record = this.#byId.get(id);
    return record?.merchantId === merchantId ? record : undefined;
  }

  /**
   * The merchant's payments for an order, oldest first: the service promises no order (take the newest by
   * `created_at`), and the order a table gives without being asked is the one that trips a client taking the first.
   */
  byOrder(merchantId: string, orderId: string): PaymentRecord[] {
    return [...this.#byId.values()].filter((r) => r.merchantId === merchantId && r.payment.orderId === orderId);
  }

  /** Every payment, newest first. */
  all(): PaymentRecord[] {
    return [...this.#byId.values()].sort((a, b) => b.seq - a.seq);
  }
}

/** The Payment object as sent at `nowMs`: a copy, so a later change never alters what was already sent. */
export function paymentAt(payment: Omit<SandboxPayment, 'datetime'>, nowMs: number): SandboxPayment {
  const copy: SandboxPayment = { datetime: Math.floor(nowMs / 1000), ...payment, media: [...payment.media] };
  if (payment.requisites) copy.requisites = { ...payment.requisites };
  return copy;
}

export function viewOf(record: PaymentRecord, nowMs: number): SandboxPaymentView {
  return {
    ...paymentAt(record.payment, nowMs),
    merchantId: record.merchantId,
    callbackUri: record.callbackUri,
    ...(record.successUri && { successUri: record.successUri }),
    ...(record.failUri && { failUri: record.failUri }),
    deliveries: record.deliveries.map((d) => ({ ...d })),
  };
}
