/**
 * What every route of one proxy shares: the resolved options, the signed client for the service, the update
 * path into the store, and the per-order queue that lines up concurrent creates within this process.
 */
import { timingSafeEqual } from '../shared/bytes.js';
import { KeyedQueue } from './coalesce.js';
import { ProxyError } from './errors.js';
import type { ResolvedOptions } from './options.js';
import { PaymentUpdates } from './payment-updates.js';
import type { PaymentRecord } from './store.js';
import { UpstreamClient } from './upstream-client.js';

export interface ProxyContext {
  options: ResolvedOptions;
  upstream: UpstreamClient;
  updates: PaymentUpdates;
  orderQueue: KeyedQueue;
}

export function createContext(options: ResolvedOptions): ProxyContext {
  const upstream = new UpstreamClient(options);
  return { options, upstream, updates: new PaymentUpdates(options, upstream), orderQueue: new KeyedQueue() };
}

// Compared against when there is no record, so that an unknown id costs the same time as a wrong token.
const NO_TOKEN = 'x'.repeat(32);

/**
 * The record of `paymentId` if `token` is the one issued with it. A wrong token and an unknown payment get the
 * same 404, so that guessing ids (they are time-based at the service) tells nothing.
 */
export async function readableRecord(options: ResolvedOptions, paymentId: string, token: string): Promise<PaymentRecord> {
  const record = await options.store.getPayment(paymentId);
  const matches = timingSafeEqual(record?.token ?? NO_TOKEN, token);
  if (!record || !matches) throw new ProxyError('not_found', 'no payment with this id and token');
  return record;
}
