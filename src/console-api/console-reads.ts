/**
 * The console's reads: a page of the list (with the counts per filter), one payment with its timeline, its
 * order's other payments and its audit, and the rows of a CSV export. A search names an order id or a payment id.
 */
import { decodeCursor, type ConsoleStore, listingOf } from '../proxy/infrastructure/console-store.js';
import type { PaymentRecord, ProxyStore } from '../proxy/infrastructure/store.js';
import { ConsoleError } from './console-answers.js';
import type { ConsoleQuery } from './console-handler.js';
import { type ConsoleRow, rowOf } from './console-rows.js';

type Store = ProxyStore & ConsoleStore;

/** At most this many rows in one answer of a CSV export; a longer list comes in several, each from the last one's cursor. */
export const EXPORT_LIMIT = 10_000;

async function page(store: Store, query: ConsoleQuery, now: number): Promise<{ records: PaymentRecord[]; next?: string }> {
  try {
    decodeCursor(query.cursor);
  } catch {
    throw new ConsoleError(400, 'bad_request', 'not a cursor of this list');
  }
  const base = { filter: query.filter, limit: query.limit, now, ...(query.cursor ? { cursor: query.cursor } : {}) };
  if (!query.q) {
    const { payments, next } = await store.listPayments(base);
    return next ? { records: payments, next } : { records: payments };
  }
  const byOrder = await store.listPayments({ ...base, orderId: query.q });
  if (byOrder.payments.length > 0 || query.cursor)
    return byOrder.next ? { records: byOrder.payments, next: byOrder.next } : { records: byOrder.payments };
  // Not an order id: perhaps a payment id.
  const one = await store.getPayment(query.q);
  const inFilter =
    one &&
    (query.filter === 'all' ||
      (await store.listPayments({ ...base, orderId: one.view.orderId })).payments.some((p) => p.view.id === one.view.id));
  return { records: one && inFilter ? [one] : [] };
}

export async function listPage(store: Store, query: ConsoleQuery, now: number) {
  const [{ records, next }, counts] = await Promise.all([page(store, query, now), store.countPayments(now)]);
  return { payments: records.map((r) => rowOf(r, now)), ...(next ? { next } : {}), counts };
}

/** Up to EXPORT_LIMIT rows of the list from the query's cursor, and the cursor of the rest when there is more. */
export async function exportRows(store: Store, query: ConsoleQuery, now: number): Promise<{ rows: ConsoleRow[]; next?: string }> {
  const rows: ConsoleRow[] = [];
  let cursor = query.cursor;
  for (let i = 0; i < EXPORT_LIMIT / 200; i++) {
    const { records, next } = await page(store, { ...query, limit: 200, ...(cursor ? { cursor } : {}) }, now);
    rows.push(...records.map((r) => rowOf(r, now)));
    if (!next) return { rows };
    cursor = next;
  }
  return { rows, next: cursor };
}

export async function readPayment(store: Store, record: PaymentRecord, now: number) {
  const id = record.view.id;
  const [history, audit, order, siblings] = await Promise.all([
    store.paymentHistory(id),
    store.auditLog(id, 50),
    store.getOrder(record.view.orderId),
    store.listPayments({ filter: 'all', orderId: record.view.orderId, limit: 50, now }),
  ]);
  // Of the current state: a failure of a state the payment has left is over (it is never told), as on the list.
  const last = [...history].reverse().find((entry) => entry.kind === 'announcement' && entry.state === record.view.state);
  const lastFailed = last?.kind === 'announcement' && !last.ok;
  const announced = await store.wasAnnounced(id, record.view.state);
  return {
    payment: rowOf(record, now),
    listedAt: listingOf(record).listedAt,
    history,
    audit,
    announcement: { state: record.view.state, announced, failing: !announced && lastFailed },
    order: {
      orderId: record.view.orderId,
      ...(order?.paidBy ? { paidBy: order.paidBy } : {}),
      payments: siblings.payments.filter((p) => p.view.id !== id).map((p) => rowOf(p, now)),
    },
  };
}
