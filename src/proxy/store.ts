/**
 * The proxy's state, behind an asynchronous interface so that several proxy instances can share it (the memory
 * store serves one process, a Redis store many). Each operation is one that must be atomic across instances:
 * claiming an order while its payment is being created, writing a payment only over the version that was read
 * (so that an older state never overwrites a newer one), announcing a state to the shop once, counting requests
 * in a window, and fanning state changes out to the event streams that follow a payment.
 */
import type { PaymentView } from '../shared/payment-view.js';

/** The browser's view as stored: `serverTime` is added when answering; the two timestamps may still be missing. */
export type StoredView = Omit<PaymentView, 'serverTime' | 'createdAt' | 'expiresAt'> & {
  createdAt?: string;
  expiresAt?: string;
};

export interface PaymentRecord {
  view: StoredView;
  /** The random token issued with the payment; only its holder may read the payment. Compared in constant time. */
  token: string;
  /** Starts at 1 and grows by one with each change of the view: the event-stream id and the compare-and-set guard. */
  version: number;
  /** Epoch milliseconds of the last change. */
  updatedAt: number;
}

export interface OrderPaymentRef {
  id: string;
  method: string;
}

/** The payments created for one order, oldest first. Written only by the holder of the order's claim. */
export interface OrderRecord {
  orderId: string;
  payments: OrderPaymentRef[];
  /** A create ended without an answer: look the order up at the service before creating another payment. */
  uncertain?: boolean;
}

export interface ProxyStore {
  /**
   * Claims an order for `owner` unless someone else holds a live claim. The claim lapses after `leaseMs`, so a
   * create that crashed half-way never locks the order for good. True when the caller now holds it.
   */
  claimOrder(orderId: string, owner: string, leaseMs: number): Promise<boolean>;
  /** Gives the claim back, but only if `owner` still holds it. */
  releaseOrder(orderId: string, owner: string): Promise<void>;
  getOrder(orderId: string): Promise<OrderRecord | undefined>;
  putOrder(order: OrderRecord): Promise<void>;

  getPayment(id: string): Promise<PaymentRecord | undefined>;
  /**
   * Writes the record only when the stored version is `expectedVersion` (0: nothing stored yet). False when
   * another writer came first: read again, merge again, try again.
   */
  putPayment(record: PaymentRecord, expectedVersion: number): Promise<boolean>;

  /**
   * True for the first caller for this payment and state, who then calls the shop's hook and either commits
   * (never again true) or releases (the next caller gets true). An uncommitted claim lapses after `leaseMs`.
   */
  claimAnnouncement(paymentId: string, state: string, leaseMs: number): Promise<boolean>;
  commitAnnouncement(paymentId: string, state: string): Promise<void>;
  releaseAnnouncement(paymentId: string, state: string): Promise<void>;

  /** Adds `delta` to a counter and returns the new value; the counter expires `ttlMs` after this call. */
  count(key: string, delta: number, ttlMs: number): Promise<number>;

  publish(channel: string, message: string): Promise<void>;
  /** Resolves once the subscription is live; call the returned function to end it. */
  subscribe(channel: string, listener: (message: string) => void): Promise<() => Promise<void>>;
}
