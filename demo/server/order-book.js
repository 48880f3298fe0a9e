// @ts-check
/**
 * The demo shop's own records: a small catalogue and the orders shoppers place, kept in memory. This is the
 * shop's side of the bargain with the proxy: `price()` is what resolveOrder answers (the browser only ever names
 * an order, never an amount), and `record()` is what onPaymentUpdate feeds, so that the shop's order list turns
 * "paid" from the callbacks alone and every announcement can be counted.
 */
import { randomBytes } from 'node:crypto';

/**
 * @typedef {{ id: string, name: string, description: string, prices: Record<string, string> }} Product
 * @typedef {import('../../dist/shared/index.js').PaymentView} PaymentView
 * @typedef {import('../../dist/proxy/index.js').PaymentUpdateSource} UpdateSource
 * @typedef {{ paymentId: string, method: string, state: string, outcome: string, amount: string, source: UpdateSource, at: string }} Announcement
 * @typedef {{
 *   id: string, productId: string, productName: string, createdAt: string,
 *   status: 'new' | import('../../dist/shared/index.js').Outcome,
 *   paid?: { paymentId: string, amount: string, currency: string },
 *   announcements: Announcement[],
 * }} Order
 */

/** Each method settles in its own currency, so each product has a price per currency. */
export const CURRENCY_BY_METHOD = /** @type {const} */ ({ upi: 'INR', sbp: 'RUB' });

/** @type {readonly Product[]} */
export const CATALOGUE = [
  { id: 'tea', name: 'Assam tea, 250 g', description: 'Malty second-flush leaves.', prices: { INR: '499.00', RUB: '450.00' } },
  { id: 'mug', name: 'Stoneware mug', description: 'Holds 350 ml, keeps it warm.', prices: { INR: '799.00', RUB: '720.00' } },
];

const MAX_ORDERS = 1000;

/** @param {{ catalogue?: readonly Product[] }} [options] */
export function createOrderBook({ catalogue = CATALOGUE } = {}) {
  /** @type {Map<string, Order>} */
  const orders = new Map();
  let sequence = 1000;

  return {
    catalogue,

    /** A new order for one product; undefined for an unknown product. @param {string} productId */
    create(productId) {
      const product = catalogue.find((p) => p.id === productId);
      if (!product) return undefined;
      sequence += 1;
      // The suffix keeps ids unique across restarts, which a real payment service may insist on.
      const id = `A-${sequence}-${randomBytes(3).toString('hex')}`;
      /** @type {Order} */
      const order = { id, productId, productName: product.name, createdAt: new Date().toISOString(), status: 'new', announcements: [] };
      orders.set(id, order);
      if (orders.size > MAX_ORDERS) orders.delete(/** @type {string} */ (orders.keys().next().value));
      return order;
    },

    /** @param {string} id */
    get(id) {
      return orders.get(id);
    },

    /** Newest first. */
    list() {
      return [...orders.values()].reverse();
    },

    /**
     * What the proxy's resolveOrder answers: the price of the order in the method's currency, or null when the
     * order is unknown or the method has no currency here. (A paid order is refused by the proxy itself, 409.)
     * @param {string} orderId
     * @param {string} method
     */
    price(orderId, method) {
      const order = orders.get(orderId);
      const currency = /** @type {Record<string, string | undefined>} */ (CURRENCY_BY_METHOD)[method];
      if (!order || !currency) return null;
      const amount = catalogue.find((p) => p.id === order.productId)?.prices[currency];
      return amount ? { amount, currency } : null;
    },

    /**
     * What the proxy's onPaymentUpdate tells the shop. A real shop ships the order here, once, after checking
     * the amount; a paid order never goes back to another status.
     * @param {PaymentView} payment
     * @param {UpdateSource} source
     */
    record(payment, source) {
      const order = orders.get(payment.orderId);
      if (!order) return;
      const { id: paymentId, method, state, outcome, amount } = payment;
      order.announcements.push({ paymentId, method, state, outcome, amount, source, at: new Date().toISOString() });
      if (order.status === 'paid') return;
      order.status = outcome;
      if (outcome === 'paid') order.paid = { paymentId, amount, currency: payment.currency };
    },
  };
}

/** @typedef {ReturnType<typeof createOrderBook>} OrderBook */
