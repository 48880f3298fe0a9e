/**
 * The single path by which anything the proxy learns about a payment (a create answer, a status answer, a
 * callback) reaches the store, the open event streams and the shop. Writes are compare-and-set on the record's
 * version, so two instances merging at once cannot lose a state; a change is published once per version; and the
 * shop's hook is told each stored state once, the "once" being committed only after the hook returned.
 */
import { randomToken } from '../shared/bytes.js';
import type { ProviderPayment } from '../shared/provider-payment.js';
import { parseTimestamp } from '../shared/timestamps.js';
import { Coalescer } from './coalesce.js';
import { describe } from './errors.js';
import type { PaymentUpdateSource, ResolvedOptions } from './options.js';
import { isIncomplete, mergeObservation, toPaymentView, type ObservedPayment } from './payment-view-mapper.js';
import type { OrderPaymentRef, PaymentRecord } from './store.js';
import { UpstreamError, type UpstreamClient } from './upstream-client.js';

/** What a subscriber of a payment's channel receives. */
export interface PublishedChange {
  version: number;
  view: PaymentRecord['view'];
}

export const channelOf = (paymentId: string) => `payment:${paymentId}`;

/** An order's payment list with `ref` added, keeping the newest 20 so that a record cannot grow without end. */
export function withPaymentRef(payments: readonly OrderPaymentRef[], ref: OrderPaymentRef): OrderPaymentRef[] {
  return [...payments, ref].slice(-20);
}

export class PaymentUpdates {
  readonly #coalescer: Coalescer;

  constructor(
    private readonly options: ResolvedOptions,
    private readonly upstream: UpstreamClient,
  ) {
    this.#coalescer = new Coalescer(options.clock, options.timeouts.coalesceMs);
  }

  /** Merges an observation into the stored record; undefined when the payment is not one of ours. */
  async observe(observed: ObservedPayment, payUrl?: string): Promise<PaymentRecord | undefined> {
    const { store, clock, logger } = this.options;
    for (let attempt = 0; attempt < 16; attempt++) {
      const current = await store.getPayment(observed.id);
      if (!current) return undefined;
      if (observed.orderId !== undefined && observed.orderId !== current.view.orderId) {
        logger.warn('ignored a payment answer whose orderId differs from the stored one', { paymentId: observed.id });
        return current;
      }
      const view = mergeObservation(current.view, observed, undefined, payUrl);
      if (view === current.view) return current;
      const next: PaymentRecord = { ...current, view, version: current.version + 1, updatedAt: clock.now() };
      if (await store.putPayment(next, current.version)) {
        await this.publish(next);
        return next;
      }
    }
    throw new Error(`payment ${observed.id} kept changing under 16 attempts to store it`);
  }

  /**
   * Records a payment the store has no record of, from a status answer that describes it fully. It gets a fresh
   * token that is never handed out (the browser that held the old one starts again), and it joins its order's
   * payments so that the order rules (409 after paid) still hold. Undefined when the answer lacks what a view needs.
   */
  async adopt(observed: ObservedPayment): Promise<PaymentRecord | undefined> {
    const { store, clock, timeouts } = this.options;
    const { orderId, method, amount, currency } = observed;
    if (!orderId || !method || !amount || !currency) return undefined;
    const view = mergeObservation(undefined, observed, { orderId, method, amount, currency });
    const record: PaymentRecord = { view, token: randomToken(), version: 1, updatedAt: clock.now() };
    if (!(await store.putPayment(record, 0))) return this.observe(observed);
    await this.publish(record);
    const owner = `adopt:${randomToken(8)}`;
    if (await store.claimOrder(orderId, owner, timeouts.claimLeaseMs)) {
      try {
        const order = (await store.getOrder(orderId)) ?? { orderId, payments: [] };
        if (!order.payments.some((p) => p.id === view.id)) {
          await store.putOrder({ ...order, payments: withPaymentRef(order.payments, { id: view.id, method }) });
        }
      } finally {
        await store.releaseOrder(orderId, owner);
      }
    }
    return record;
  }

  async publish(record: PaymentRecord): Promise<void> {
    const change: PublishedChange = { version: record.version, view: record.view };
    await this.options.store.publish(channelOf(record.view.id), JSON.stringify(change));
  }

  /**
   * Tells the shop about the record's current state unless that was done already. Throws when the hook throws,
   * leaving the state unannounced for the next observation (a callback's retry) to try again.
   */
  async announce(record: PaymentRecord, source: PaymentUpdateSource): Promise<void> {
    const { onPaymentUpdate, store, clock, timeouts } = this.options;
    if (!onPaymentUpdate || isIncomplete(record.view)) return;
    const { id, state } = record.view;
    if (!(await store.claimAnnouncement(id, state, timeouts.claimLeaseMs))) return;
    try {
      await onPaymentUpdate(toPaymentView(record.view, clock.now()), { source });
    } catch (error) {
      await store.releaseAnnouncement(id, state);
      throw error;
    }
    await store.commitAnnouncement(id, state);
  }

  /** announce() for routes that answer the browser: a failing hook is logged, not passed to the shopper. */
  async announceQuietly(record: PaymentRecord, source: PaymentUpdateSource): Promise<void> {
    try {
      await this.announce(record, source);
    } catch (error) {
      this.options.logger.error('onPaymentUpdate threw; the state will be announced again when next seen', {
        paymentId: record.view.id,
        state: record.view.state,
        error: describe(error),
      });
    }
  }

  /**
   * Asks the service about the payment, sharing the call with every request for it in flight or answered within
   * the coalescing window, and stores what it said.
   */
  refresh(paymentId: string, source: PaymentUpdateSource = 'status'): Promise<void> {
    return this.#coalescer.run(paymentId, async () => {
      const record = await this.observe(await this.fetchFresh(paymentId));
      if (record) await this.announceQuietly(record, source);
    });
  }

  /** A fresh status call, shared with nothing: for confirming a callback's claim that a payment was paid. */
  async fetchFresh(paymentId: string): Promise<ObservedPayment> {
    return pickPayment(await this.upstream.status({ paymentId }), paymentId);
  }
}

/** The entry for this payment id in a status answer (an object or an array). */
export function pickPayment(list: ProviderPayment[], paymentId: string): ProviderPayment {
  const entry = list.find((p) => p.id === paymentId);
  if (!entry) throw new UpstreamError('malformed', 'the status answer does not contain the payment asked for');
  return entry;
}

/** The newest payment of a status answer looked up by order (created_at; the last one when it is missing). */
export function newestPayment(list: ProviderPayment[]): ProviderPayment | undefined {
  let best: ProviderPayment | undefined;
  let bestAt = -Infinity;
  for (const p of list) {
    const rank = parseTimestamp(p.created_at) ?? -Infinity;
    if (!best || rank >= bestAt) {
      best = p;
      bestAt = rank;
    }
  }
  return best;
}
