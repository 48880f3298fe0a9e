/**
 * A payment's channel on the store's pub/sub: what the ledger publishes there and what the payment's event streams
 * (use-cases/events-route.ts) read, on whichever instance they are open. It carries two kinds of message: a new
 * state of the payment, and the news that another payment of its order has paid the order. The second changes
 * nothing in the payment's own record (it is still open, and the shop's hook hears nothing of it), but its page
 * must stop offering it at once: the shopper who switched methods and then paid the first one's QR from a phone
 * should see the order paid, as a status call would answer it (409 order_paid).
 */
import type { ProxyStore, PaymentRecord } from '../infrastructure/store.js';
import type { ResolvedOptions } from '../options.js';

export const channelOf = (paymentId: string) => `payment:${paymentId}`;

/** A new state of the channel's payment: the record's version and view. */
export interface PublishedChange {
  version: number;
  view: PaymentRecord['view'];
}

/** Another payment of the order paid it: the channel's payment is no longer the one to pay. */
export interface OrderPaidNews {
  orderPaid: true;
}

export type PublishedMessage = PublishedChange | OrderPaidNews;

/** The one text of the news, the same for every channel it goes to (streams encode it once for all). */
export const ORDER_PAID_NEWS = JSON.stringify({ orderPaid: true } satisfies OrderPaidNews);

export function isOrderPaidNews(message: PublishedMessage): message is OrderPaidNews {
  return 'orderPaid' in message && message.orderPaid === true;
}

/** A new state of the payment, for its streams. */
export async function publishChange(store: ProxyStore, record: PaymentRecord): Promise<void> {
  const change: PublishedChange = { version: record.version, view: record.view };
  await store.publish(channelOf(record.view.id), JSON.stringify(change));
}

/**
 * `record` paid its order: the open pages of the order's other payments hear it on their channels, so that a
 * shopper who switched methods and paid the first one sees the order paid at once. Their records do not change.
 * Never fails the caller: pub/sub is at most once anyway, and a page that misses the news learns it from its next
 * status call or stream, which look at the order too.
 */
export async function publishOrderPaid({ store, logger }: ResolvedOptions, record: PaymentRecord): Promise<void> {
  const { id, orderId } = record.view;
  try {
    const others = ((await store.getOrder(orderId))?.payments ?? []).filter((ref) => ref.id !== id);
    await Promise.all(others.map((ref) => store.publish(channelOf(ref.id), ORDER_PAID_NEWS)));
  } catch (error) {
    logger.warn("could not tell the order's other payments that it is paid", { orderId, error: String(error) });
  }
}
