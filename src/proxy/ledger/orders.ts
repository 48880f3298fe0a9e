/**
 * The orders: which payments each order has, whether a create of it ended without an answer, and which payment
 * paid it. The one holder of order leases: every write of an order record happens here, under the order's lease
 * taken here, so that "one pending payment per order" and "paid once" hold across instances. A create takes the
 * lease as a held order (`tryHold`), whose methods are the only way to write the order, and gives it back.
 */
import { randomToken } from '../../shared/bytes.js';
import type { OrderPaymentRef, OrderRecord, PaymentRecord, ProxyStore } from '../infrastructure/store.js';
import type { ResolvedOptions } from '../resolved-options.js';
import { keepStoreLease } from '../infrastructure/lease-renewal.js';

const leaseOf = (orderId: string) => `order:${orderId}`;

/**
 * Takes the order's lease. A claim that failed may have been made all the same: Redis carries out a command it was
 * too slow to answer (its commandTimeoutMs) once it moves on, and the lease would then hold the order for its whole
 * term, turning the shopper's retry away as "still creating". The release is sent after it, unawaited (it fails as
 * the claim did while the store is stalled), so that a store that runs its commands in order gives the lease back.
 */
async function claimOrder(store: ProxyStore, orderId: string, owner: string, leaseMs: number): Promise<boolean> {
  try {
    return await store.claim(leaseOf(orderId), owner, leaseMs);
  } catch (error) {
    store.release(leaseOf(orderId), owner).catch(() => {});
    throw error;
  }
}

/** An order's payment list with `ref` added, keeping the newest 20 so that a record cannot grow without end. */
export function withPaymentRef(payments: readonly OrderPaymentRef[], ref: OrderPaymentRef): OrderPaymentRef[] {
  return [...payments.filter((p) => p.id !== ref.id), ref].slice(-20);
}

/**
 * Whether another payment than `view` has paid its order (the shopper switched methods, then paid the first one's
 * QR). Its page is then told the order is paid, by the status call (409 order_paid) and the event stream alike, so
 * that nobody pays it a second time.
 */
export async function paidByAnother(store: ProxyStore, view: PaymentRecord['view']): Promise<boolean> {
  const paidBy = (await store.getOrder(view.orderId))?.paidBy;
  return paidBy !== undefined && paidBy !== view.id;
}

/** What the page of a payment whose order another payment paid is told (the message of its order_paid). */
export const PAID_BY_ANOTHER = 'this order is already paid by another payment';

/** What the holder of an order's lease may do to the order; handed out by `OrderBook.tryHold` only. */
export interface HeldOrder {
  readonly orderId: string;
  /** The stored record, or an empty one for an order this store has never seen (`known` false). */
  read(): Promise<{ order: OrderRecord; known: boolean }>;
  /** Adds payments found at the service to the order's list; the record as written. */
  addPayments(refs: readonly OrderPaymentRef[]): Promise<OrderRecord>;
  /** A create's payment is recorded: it joins the order, which is no longer uncertain. */
  addCreated(ref: OrderPaymentRef): Promise<void>;
  /** A create is about to ask the service: until it is recorded, the next one looks the order up there first. */
  markUncertain(): Promise<void>;
  /** Gives the lease back. */
  release(): Promise<void>;
}

export class OrderBook {
  constructor(private readonly options: ResolvedOptions) {}

  /**
   * The order held by this caller, or undefined while someone else holds its lease. The lease is renewed while it
   * is held (a create waits on the service and the shop for as long as they take, past `claimLeaseMs` when the
   * service is slow), so that another instance never takes the order from a create still at work and makes a second
   * payment of it; it lapses only when the process holding it is gone.
   */
  async tryHold(orderId: string): Promise<HeldOrder | undefined> {
    const { store, timeouts } = this.options;
    const owner = randomToken(12);
    if (!(await claimOrder(store, orderId, owner, timeouts.claimLeaseMs))) return undefined;
    const stopRenewing = keepStoreLease(this.options, {
      key: leaseOf(orderId),
      owner,
      leaseMs: timeouts.claimLeaseMs,
      lostWords: "a create outlived its order's lease: another request may have taken the order",
      failedWords: 'renewing the lease of an order being created failed',
      fields: { orderId },
    });
    return this.#held(orderId, async () => {
      stopRenewing();
      await store.release(leaseOf(orderId), owner);
    });
  }

  /**
   * Settles who paid the order: the first payment found paid becomes the order's `paidBy` for good, and any
   * other paid payment of it is a second payment. `busy` when the order's lease is held (a create in progress):
   * the caller tries again later.
   */
  async settle(record: PaymentRecord): Promise<{ secondPaymentOf?: string } | 'busy'> {
    const { id, orderId, method } = record.view;
    const known = await this.options.store.getOrder(orderId);
    if (known?.paidBy !== undefined) return known.paidBy === id ? {} : { secondPaymentOf: known.paidBy };
    const outcome = await this.#ifFree(orderId, async (order) => {
      if (order.paidBy !== undefined && order.paidBy !== id) return { secondPaymentOf: order.paidBy };
      await this.options.store.putOrder({ ...order, payments: withPaymentRef(order.payments, { id, method }), paidBy: id });
      return {};
    });
    return outcome ?? 'busy';
  }

  /** Adds a payment adopted from the service to its order, unless a create holds the order (it adds its own). */
  async join(orderId: string, ref: OrderPaymentRef): Promise<void> {
    await this.#ifFree(orderId, async (order) => {
      if (!order.payments.some((p) => p.id === ref.id)) {
        await this.options.store.putOrder({ ...order, payments: withPaymentRef(order.payments, ref) });
      }
      return true;
    });
  }

  /** Runs `work` on the order under its lease if nobody holds it now; undefined when someone does. */
  async #ifFree<T>(orderId: string, work: (order: OrderRecord) => Promise<T>): Promise<T | undefined> {
    const { store, timeouts } = this.options;
    const owner = `ledger:${randomToken(8)}`;
    if (!(await claimOrder(store, orderId, owner, timeouts.claimLeaseMs))) return undefined;
    try {
      return await work((await store.getOrder(orderId)) ?? { orderId, payments: [] });
    } finally {
      await store.release(leaseOf(orderId), owner);
    }
  }

  #held(orderId: string, release: () => Promise<void>): HeldOrder {
    const { store } = this.options;
    const read = async () => {
      const order = await store.getOrder(orderId);
      return { order: order ?? { orderId, payments: [] }, known: order !== undefined };
    };
    return {
      orderId,
      read,
      addPayments: async (refs) => {
        const { order } = await read();
        let payments = order.payments;
        for (const ref of refs) payments = withPaymentRef(payments, ref);
        const written = { ...order, payments };
        await store.putOrder(written);
        return written;
      },
      addCreated: async (ref) => {
        const { order } = await read();
        const { uncertain: _, ...rest } = order;
        await store.putOrder({ ...rest, payments: withPaymentRef(order.payments, ref) });
      },
      markUncertain: async () => {
        await store.putOrder({ ...(await read()).order, uncertain: true });
      },
      release,
    };
  }
}
