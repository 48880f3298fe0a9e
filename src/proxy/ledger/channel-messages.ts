/**
 * What a payment's channel on the store's pub/sub carries (the ledger publishes, the payment's event streams in
 * use-cases/events-route.ts read, on whichever instance they are open): a new state of the payment, or the news
 * that another payment of its order has paid the order. The news changes nothing in the payment's own record (it
 * is still open, and the shop's hook hears nothing of it), but its page must stop offering it at once: the
 * shopper who switched methods and then paid the first one's QR from a phone should see the order paid, as a
 * status call would answer it (409 order_paid).
 */
import type { PaymentRecord } from '../infrastructure/store.js';

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

/** The one text of the news, the same on every channel it goes to (the streams encode it once for all). */
export const ORDER_PAID_NEWS = JSON.stringify({ orderPaid: true } satisfies OrderPaidNews);

export function isOrderPaidNews(message: PublishedMessage): message is OrderPaidNews {
  return 'orderPaid' in message && message.orderPaid === true;
}
