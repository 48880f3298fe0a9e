/**
 * The payment a create request gets for its order, decided under the order's lease: the pending payment it
 * already has (double clicks, reloads and two tabs share one instead of paying twice), a 409 once the order is
 * paid, or a new one made at the service and recorded. An order the store does not know (a restart, another
 * deployment) is looked up at the service before a payment is created for it.
 */
import { normalizeAmount } from '../../shared/money.js';
import type { CreateAnswer } from '../../shared/provider-messages.js';
import type { ProviderPayment } from '../../shared/provider-payment.js';
import { describe, ProxyError } from '../http/errors.js';
import type { PaymentRecord } from '../infrastructure/store.js';
import { UpstreamError, type UpstreamClient } from '../infrastructure/upstream-client.js';
import type { ResolvedOptions } from '../options.js';
import type { Ledger } from './ledger.js';
import type { HeldOrder, OrderBook } from './orders.js';
import { isIncomplete, type CreateContext } from './payment-view-mapper.js';

/** Makes the payment at the service; its answer, or an UpstreamError marked `outcomeUnknown` when none came. */
export type CreateAtService = (held: HeldOrder) => Promise<CreateAnswer>;

export interface OrderPayment {
  record: PaymentRecord;
  /** True when this request made the payment (201), false when it found one (200). */
  created: boolean;
}

export class OrderPayments {
  constructor(
    private readonly options: ResolvedOptions,
    private readonly ledger: Ledger,
    private readonly orders: OrderBook,
    private readonly upstream: UpstreamClient,
  ) {}

  /** The order's open payment for this method and price, or a new one from `createAtService`. */
  paymentFor(order: CreateContext, createAtService: CreateAtService): Promise<OrderPayment> {
    const found = async () => {
      const record = await this.#openPayment(order);
      return record && { record, created: false };
    };
    return this.orders.hold(order.orderId, found, async (held) => {
      if (!(await held.read()).known) await this.#adoptFromService(held);
      // Another instance may have finished between our look and our claim.
      const existing = await found();
      if (existing) return existing;
      return { record: await this.#create(held, order, createAtService), created: true };
    });
  }

  async #create(held: HeldOrder, order: CreateContext, createAtService: CreateAtService): Promise<PaymentRecord> {
    let answer: CreateAnswer;
    try {
      answer = await createAtService(held);
    } catch (error) {
      if (error instanceof UpstreamError && error.outcomeUnknown) await held.markUncertain();
      throw error;
    }
    const record = await this.ledger.recordCreated(held, order, answer);
    if (!answer.incomplete && !isIncomplete(record.view)) return record;
    await this.ledger.refresh(record.view.id, 'create');
    return (await this.options.store.getPayment(record.view.id)) ?? record;
  }

  /**
   * An order this store has never seen may still have payments at the service (the store was emptied by a
   * restart, or it is shared by another deployment): record them before deciding, so that a paid order is
   * refused and a pending payment is handed out again instead of a second one.
   */
  async #adoptFromService(held: HeldOrder): Promise<void> {
    let list: ProviderPayment[];
    try {
      list = await this.upstream.status({ orderId: held.orderId });
    } catch (error) {
      if (error instanceof UpstreamError && !error.retryable) return; // the service knows no such order
      throw error;
    }
    const refs = [];
    for (const payment of list) {
      if (payment.orderId !== held.orderId || !payment.method) continue;
      const record = (await this.options.store.getPayment(payment.id)) ?? (await this.ledger.adopt(payment, 'create'));
      if (record) refs.push({ id: record.view.id, method: record.view.method });
    }
    if (refs.length) await held.addPayments(refs);
  }

  /**
   * The pending payment this request should get again, if any. Throws 409 when the order is paid. Payments of
   * the order that are still open are asked about first, never from a shared older answer, so that a payment paid
   * a moment ago is not missed. An open payment priced differently from what the shop answers now is superseded:
   * the shop re-priced the order, so the old amount must not stay payable as if it settled the order.
   */
  async #openPayment(order: CreateContext): Promise<PaymentRecord | undefined> {
    const { store, logger } = this.options;
    const stored = await store.getOrder(order.orderId);
    if (stored?.paidBy !== undefined) throw orderPaid();
    const refs = stored?.payments ?? [];
    let candidate: PaymentRecord | undefined;
    for (const [index, ref] of [...refs].reverse().entries()) {
      let record = await store.getPayment(ref.id);
      if (!record) continue;
      if (!record.view.final && index < 5) {
        try {
          await this.ledger.refresh(ref.id, 'create', { fresh: true });
          record = (await store.getPayment(ref.id)) ?? record;
        } catch (error) {
          // A stored, complete view is good enough to hand out again; an incomplete one is not.
          if (ref.method === order.method && isIncomplete(record.view)) throw error;
          logger.warn('could not refresh an open payment of an order', { paymentId: ref.id, error: describe(error) });
        }
      }
      if (record.view.outcome === 'paid') throw orderPaid();
      const repriced = normalizeAmount(record.priced.amount) !== order.amount || record.priced.currency !== order.currency;
      if (repriced && !record.view.final && record.view.outcome !== 'superseded') {
        await this.ledger.supersede(record.view.id);
        continue;
      }
      const same = ref.method === order.method && record.view.amount === order.amount && record.view.currency === order.currency;
      if (!candidate && same && !record.view.final && record.view.outcome !== 'superseded') candidate = record;
    }
    return candidate;
  }
}

const orderPaid = () => new ProxyError('order_paid', 'this order is already paid');
