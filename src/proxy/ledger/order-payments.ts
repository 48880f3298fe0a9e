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
import { sleep } from '../../shared/clock.js';
import type { OrderRecord, PaymentRecord } from '../infrastructure/store.js';
import { UpstreamError, type UpstreamClient } from '../infrastructure/upstream-client.js';
import { isIncomplete } from '../http/payment-answer.js';
import type { ResolvedOptions } from '../resolved-options.js';
import type { Ledger } from './ledger.js';
import type { HeldOrder, OrderBook } from './orders.js';
import type { CreateContext } from './payment-view-mapper.js';

/** Makes an order's payment at the service (use-cases/create-upstream.ts), handed to the ledger when it is built. */
export interface ServiceCreate {
  /** The service's answer, or an UpstreamError marked `outcomeUnknown` when none came. */
  create(order: CreateContext, orderRecord: OrderRecord): Promise<CreateAnswer>;
}

/** A second request for an order waits this long between looks while the first one holds the order. */
const CLAIM_POLL_MS = 100;

export interface OrderPayment {
  record: PaymentRecord;
  /** True when this request made the payment (201), false when it found one (200). */
  created: boolean;
}

export class OrderPayments {
  /** Creates of one order in this process wait for each other rather than poll the store for its lease. */
  readonly #queue = new KeyedQueue();

  constructor(
    private readonly options: ResolvedOptions,
    private readonly ledger: Ledger,
    private readonly orders: OrderBook,
    private readonly upstream: UpstreamClient,
    private readonly service: ServiceCreate,
  ) {}

  /** The order's open payment for this method and price, or a new one made at the service. */
  paymentFor(order: CreateContext): Promise<OrderPayment> {
    return this.#queue.run(order.orderId, () => this.#inTurn(order));
  }

  /**
   * Looks for the order's payment, and takes the order's lease when there is none; while another request holds
   * it (on any instance), looks again until that one is done or has taken about as long as a create can take.
   */
  async #inTurn(order: CreateContext): Promise<OrderPayment> {
    const { clock, timeouts } = this.options;
    const giveUpAt = clock.now() + Math.min(timeouts.claimLeaseMs, timeouts.createMs + 2 * timeouts.statusDeadlineMs + 5_000);
    let held: HeldOrder | undefined;
    for (let round = 0; !held; round++) {
      const existing = await this.#openPayment(order);
      if (existing) return { record: existing, created: false };
      held = await this.orders.tryHold(order.orderId);
      if (held) break;
      if (clock.now() >= giveUpAt || round >= 1_000) {
        throw new ProxyError('upstream_timeout', 'another request is still creating a payment for this order; try again');
      }
      await sleep(clock, CLAIM_POLL_MS);
    }
    try {
      let { order: orderRecord, known } = await held.read();
      if (!known) orderRecord = (await this.#adoptFromService(held)) ?? orderRecord;
      // Another instance may have finished between our look and our claim.
      const existing = await this.#openPayment(order);
      if (existing) return { record: existing, created: false };
      return { record: await this.#create(held, order, orderRecord), created: true };
    } finally {
      await held.release();
    }
  }

  /**
   * Makes the payment, has the ledger record it, then adds it to the order. The order is marked uncertain before the
   * service is asked, so that whatever fails after the service made the payment (no answer came, the store refused
   * the record, or a stalled store failed every write after the answer, a mark written then included) leaves the
   * order saying so: the next create finds this payment at the service instead of making a second one. When the ledger
   * could not complete the record (the status call for the expiry failed), the payment joins its order all the same
   * and the request fails as that call failed: the next create hands the payment out again.
   */
  async #create(held: HeldOrder, order: CreateContext, orderRecord: OrderRecord): Promise<PaymentRecord> {
    if (!orderRecord.uncertain) await held.markUncertain();
    const answer = await this.service.create(order, orderRecord);
    let recorded: Awaited<ReturnType<Ledger['recordCreated']>>;
    try {
      recorded = await this.ledger.recordCreated(order, answer);
      // Clears the mark: the payment is the order's now.
      await held.addCreated({ id: recorded.record.view.id, method: recorded.record.view.method });
    } catch (error) {
      this.options.logger.warn('a payment made at the service could not be recorded; the next create of its order finds it there', {
        orderId: held.orderId,
        paymentId: answer.payment.id,
        error: describe(error),
      });
      throw error;
    }
    if (recorded.completionFailure !== undefined) throw recorded.completionFailure;
    return recorded.record;
  }

  /**
   * An order this store has never seen may still have payments at the service (the store was emptied by a
   * restart, or it is shared by another deployment): record them before deciding, so that a paid order is
   * refused and a pending payment is handed out again instead of a second one.
   */
  async #adoptFromService(held: HeldOrder): Promise<OrderRecord | undefined> {
    let list: ProviderPayment[];
    try {
      list = await this.upstream.status({ orderId: held.orderId });
    } catch (error) {
      if (error instanceof UpstreamError && !error.retryable) return undefined; // the service knows no such order
      throw error;
    }
    const refs = [];
    for (const payment of list) {
      if (payment.orderId !== held.orderId || !payment.method) continue;
      const record = (await this.options.store.getPayment(payment.id)) ?? (await this.ledger.adopt(payment, 'create'));
      if (record) refs.push({ id: record.view.id, method: record.view.method });
    }
    return refs.length ? held.addPayments(refs) : undefined;
  }

  /**
   * The pending payment this request should get again, if any. Throws 409 when the order is paid. Payments of
   * the order that are still open are asked about first, never from a shared older answer, so that a payment paid
   * a moment ago is not missed. An open payment priced differently from what the shop answers now for its method
   * is superseded: the shop re-priced the order, so the old amount must not stay payable as if it settled the
   * order. A payment of another method is judged by that method's price (`priceOf`: a shop may price UPI in rupees
   * and SBP in roubles), so a shopper's switch alone supersedes nothing, and one the shop no longer prices is.
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
      const open = !record.view.final && record.view.outcome !== 'superseded';
      const price = ref.method === order.method || !open || !order.priceOf ? order : await order.priceOf(ref.method);
      const repriced = !price || normalizeAmount(record.priced.amount) !== price.amount || record.priced.currency !== price.currency;
      if (repriced && open) {
        await this.ledger.supersede(record.view.id);
        continue;
      }
      const same = ref.method === order.method && record.view.amount === order.amount && record.view.currency === order.currency;
      if (!candidate && same && open) candidate = record;
    }
    return candidate;
  }
}

const orderPaid = () => new ProxyError('order_paid', 'this order is already paid');

/**
 * Runs work for one key after the previous work for that key has finished (within this process), so that two
 * clicks on the same order are handled one after the other and the second finds the first one's payment.
 */
class KeyedQueue {
  readonly #tails = new Map<string, Promise<unknown>>();

  run<T>(key: string, work: () => Promise<T>): Promise<T> {
    const previous = this.#tails.get(key) ?? Promise.resolve();
    const result = previous.catch(() => {}).then(work);
    const tail = result.catch(() => {});
    this.#tails.set(key, tail);
    void tail.then(() => {
      if (this.#tails.get(key) === tail) this.#tails.delete(key);
    });
    return result;
  }
}
