/**
 * The ledger: the one writer of payments and orders. Whatever the proxy learns about a payment (a create answer,
 * a status answer, a callback, a reconcile sweep) reaches the store through here. Writes are compare-and-set on
 * the record's version, so two instances merging at once cannot lose a state; a change is published once per
 * version for the event streams; every new state a shop should hear of is put in the outbox (outbox.ts, the
 * one writer of announcements) before anyone is told; and an order is marked paid (orders.ts, the one holder of
 * order leases) as soon as a payment of it is recorded paid, whether or not the shop has a hook, and the event
 * streams of the order's other payments are told so (channel-messages.ts). Which observed state may replace a
 * stored one is the transition table (transitions.ts).
 */
import { randomToken } from '../../shared/bytes.js';
import type { CreateAnswer } from '../../shared/provider-messages.js';
import { parseTimestamp } from '../../shared/timestamps.js';
import { Coalescer } from '../infrastructure/coalesce.js';
import { answerOf, outcomeOf, type ServiceOutcome } from '../infrastructure/service-outcome.js';
import type { PaymentUpdateSource } from '../options.js';
import type { ResolvedOptions } from '../resolved-options.js';
import { isIncomplete } from '../http/payment-answer.js';
import {
  asksPrice,
  mergeObservation,
  supersede,
  unconfirmedFinish,
  type CreateContext,
  type ObservedPayment,
} from './payment-view-mapper.js';
import { mayFollow, stillAsking } from './transitions.js';
import { keepStoreLease } from '../infrastructure/lease-renewal.js';
import type { PaymentRecord } from '../infrastructure/store.js';
import type { OrderBook } from './orders.js';
import type { Outbox } from './outbox.js';
import { UpstreamError, type UpstreamClient } from '../infrastructure/upstream-client.js';
import type { HistoryEntry } from '../infrastructure/console-store.js';
import { appendHistory } from '../infrastructure/timeline.js';
import { markSecondPayment } from './second-payment-mark.js';
import { describe } from '../http/errors.js';
import { ORDER_PAID_NEWS, type PublishedChange } from './channel-messages.js';

export const channelOf = (paymentId: string) => `payment:${paymentId}`;

const SWEEP_LEASE = 'sweep';

/** A busy order is asked again after 250 ms, 500 ms, ... : ten tries span more than the order lease's minute. */
const SETTLE_RETRY_MS = 250;
const SETTLE_TRIES = 10;

/** A payment whose expiry is not known yet is followed this long before the service must have said it. */
const UNKNOWN_EXPIRY_FOLLOW_MS = 60 * 60_000;

export class Ledger {
  /** Each payment's last status call: done (recorded), or the service's refusal or failure (service-outcome.ts). */
  readonly #coalescer: Coalescer<ServiceOutcome<void>>;
  /** Each payment's last look-up for the store's lack of a record (`lookUp`): the payment, or the service's failure. */
  readonly #lookUps: Coalescer<ServiceOutcome<ObservedPayment>>;

  constructor(
    private readonly options: ResolvedOptions,
    private readonly upstream: UpstreamClient,
    private readonly outbox: Outbox,
    private readonly orders: OrderBook,
  ) {
    this.#coalescer = new Coalescer(options.clock, options.timeouts.coalesceMs);
    this.#lookUps = new Coalescer(options.clock, options.timeouts.coalesceMs);
  }

  /**
   * Merges an observation into the stored record; undefined when the payment is not one of ours. An answer that
   * puts a known payment under another order is the service contradicting itself: an upstream failure, never a
   * reason to move the payment.
   */
  async observe(observed: ObservedPayment, payUrl: string | undefined, source: PaymentUpdateSource): Promise<PaymentRecord | undefined> {
    const { store } = this.options;
    for (let attempt = 0; attempt < 16; attempt++) {
      const current = await store.getPayment(observed.id);
      if (!current) return undefined;
      if (observed.orderId !== undefined && observed.orderId !== current.view.orderId) {
        throw new UpstreamError('malformed', `the service described payment ${observed.id} under another orderId than it was created for`);
      }
      if (!mayFollow(current.view, observed.state)) return current; // a late, repeated or reordered notice
      if (unconfirmedFinish(observed)) return current; // not paid yet, whatever the state says
      if (current.priced && stillAsking(observed.state) && !asksPrice(observed, current.priced)) {
        this.options.logger.warn('ignored an answer asking the shopper for another sum than the shop priced', {
          paymentId: observed.id,
          asked: `${observed.init_amount ?? observed.amount} ${observed.currency ?? current.view.currency}`,
        });
        return current;
      }
      const view = mergeObservation(current.view, observed, undefined, payUrl, current.priced);
      if (view === current.view) return current;
      const next = this.#next(current, view);
      if (await this.#write(next, current.version)) {
        await this.#recorded(next, source, current.view);
        return next;
      }
    }
    throw new Error(`payment ${observed.id} kept changing under 16 attempts to store it`);
  }

  /**
   * Records the payment a create answered (or an uncertain create turned out to have made) with what the answer
   * tells. The documented answer has no expiry, which the browser needs: the status path then completes the record
   * at once (`refresh`, as for any incomplete record), here, so that the create goes through the ledger once.
   * Resolves to the record and, when that status call failed, to its error: the payment stays recorded either way,
   * and the caller, which holds the order's lease, adds it to its order.
   */
  async recordCreated(order: CreateContext, answer: CreateAnswer): Promise<{ record: PaymentRecord; completionFailure?: unknown }> {
    const source = 'create';
    const { store, clock } = this.options;
    const view = mergeObservation(undefined, answer.payment, order, answer.url);
    if (view.orderId !== order.orderId) {
      throw new UpstreamError('malformed', 'the service answered the create with a payment of another order');
    }
    if (view.method !== order.method || !asksPrice(answer.payment, order)) {
      // Shown, it would ask the shopper for a sum or a way of paying the shop never priced.
      throw new UpstreamError(
        'malformed',
        `the service answered the create of a ${order.method} payment of ${order.amount} ${order.currency} with a ${view.method} payment of ${view.amount} ${view.currency}`,
      );
    }
    let record: PaymentRecord = this.#withFollow({
      view,
      priced: { amount: order.amount, currency: order.currency },
      version: 1,
      updatedAt: clock.now(),
      listedAt: clock.now(),
    });
    if (await this.#write(record, 0)) {
      await this.#recorded(record, source);
    } else {
      // A callback adopted this payment while its create answer was on its way (callback-route.ts).
      const adopted = await store.getPayment(view.id);
      if (adopted?.view.orderId !== order.orderId) {
        throw new UpstreamError('malformed', `the service answered the create with payment ${view.id}, already known for another order`);
      }
      record = (await this.observe(answer.payment, answer.url, source)) ?? adopted;
    }
    if (!answer.incomplete && !isIncomplete(record.view)) return { record };
    try {
      await this.refresh(view.id, source);
    } catch (error) {
      return { record, completionFailure: error };
    }
    return { record: (await store.getPayment(view.id)) ?? record };
  }

  /**
   * Takes an open payment out of offer: its order was re-priced. Its pages hear it on their event streams and
   * status calls; if it is paid anyway it is announced as `superseded`, never `paid` (see outcome.ts).
   */
  async supersede(paymentId: string): Promise<void> {
    const { store, logger } = this.options;
    for (let attempt = 0; attempt < 16; attempt++) {
      const current = await store.getPayment(paymentId);
      const view = current && supersede(current.view);
      if (!current || !view) return;
      const next = this.#next(current, view);
      if (await this.#write(next, current.version)) {
        logger.info('the order was re-priced: its open payment is superseded', { paymentId, orderId: view.orderId });
        await this.#recorded(next, 'create', current.view);
        return;
      }
    }
    throw new Error(`payment ${paymentId} kept changing under 16 attempts to supersede it`);
  }

  /**
   * Records a payment the store has no record of, from a status answer that describes it fully: the store lost
   * it (a restarted memory store) or another deployment created it. It joins its order's payments so that the
   * order rules still hold. Its price is the amount the service was asked for. Undefined when the answer lacks
   * what a view needs.
   */
  async adopt(observed: ObservedPayment, source: PaymentUpdateSource): Promise<PaymentRecord | undefined> {
    const { clock } = this.options;
    const { orderId, method, currency } = observed;
    const asked = observed.init_amount ?? observed.amount;
    if (!orderId || !method || !asked || !currency || unconfirmedFinish(observed)) return undefined;
    const view = mergeObservation(undefined, observed, { orderId, method, amount: asked, currency });
    const record = this.#withFollow({
      view,
      priced: { amount: asked, currency },
      version: 1,
      updatedAt: clock.now(),
      listedAt: clock.now(),
    });
    if (!(await this.#write(record, 0))) return this.observe(observed, undefined, source);
    await this.#recorded(record, source);
    await this.orders.join(orderId, { id: view.id, method });
    return record;
  }

  /**
   * Runs one reconcile sweep's `work` under the sweep lease, one sweep across instances; nothing when one runs
   * (false). The lease is renewed while the sweep works (a store with `extend`), and lapses only for a process that
   * died.
   */
  async whileSweeping(work: () => Promise<void>): Promise<boolean> {
    const { store, timeouts } = this.options;
    const owner = randomToken(12);
    if (!(await store.claim(SWEEP_LEASE, owner, timeouts.sweepLeaseMs))) return false;
    // Held for as long as the sweep runs (a slow service, many payments), not for its first term alone.
    const stopRenewing = keepStoreLease(this.options, {
      key: SWEEP_LEASE,
      owner,
      leaseMs: timeouts.sweepLeaseMs,
      lostWords: 'a reconcile sweep is still running after its lease lapsed: another instance may sweep beside it',
      failedWords: 'renewing the lease of a reconcile sweep failed',
      fields: {},
    });
    try {
      await work();
      return true;
    } finally {
      stopRenewing();
      await store.release(SWEEP_LEASE, owner);
    }
  }

  /** Stops following a payment that is past its follow window without a final state. */
  async unfollow(record: PaymentRecord): Promise<void> {
    const { followUntil, ...rest } = record;
    if (followUntil === undefined) return;
    await this.options.store.putPayment({ ...rest, version: record.version + 1, updatedAt: this.options.clock.now() }, record.version);
  }

  /**
   * Follows a payment past its window for another `lateGraceMs`: the service still has it in hand (the payer said
   * they paid, a dispute, a finish not confirmed yet), and its decision may come at any time. The write also keeps
   * the record from being dropped as scratch by a store that bounds its open payments.
   */
  async followOn(record: PaymentRecord): Promise<void> {
    const now = this.options.clock.now();
    const next = { ...record, followUntil: now + this.options.timeouts.lateGraceMs, version: record.version + 1, updatedAt: now };
    await this.options.store.putPayment(next, record.version);
  }

  /**
   * Tells the payment's open event streams of its new state. Never fails the caller: the state is recorded, and the
   * order's settling and the shop's announcement that follow must not be lost with a message that pub/sub delivers
   * at most once anyway (a page that misses it learns the state from its next status call).
   */
  async publish(record: PaymentRecord): Promise<void> {
    const change: PublishedChange = { version: record.version, view: record.view };
    try {
      await this.options.store.publish(channelOf(record.view.id), JSON.stringify(change));
    } catch (error) {
      this.options.logger.warn("could not publish a payment's new state to its event streams", {
        paymentId: record.view.id,
        error: describe(error),
      });
    }
  }

  /**
   * Asks the service about the payment, sharing the call with every request for it in flight or answered within
   * the coalescing window (in flight only, when `fresh`: a create must not make a second payment on an answer
   * from seconds ago), and records what it said. A refusal or failure of the call is shared for the window as an
   * answer is, and thrown to each sharer: while the service is down, a poll or a stream's ping right after a failed
   * call used to make a call of its own, so N pollers of a payment (or a script replaying its status request) cost
   * the struggling service N calls. A payment recorded final meanwhile (a callback the service confirmed) is
   * answered from the store by the status route without asking, so the kept failure does not hide it from the polls
   * that come after.
   */
  refresh(paymentId: string, source: PaymentUpdateSource, { fresh = false } = {}): Promise<void> {
    const outcome =
      this.#coalescer.shared(paymentId, fresh ? 0 : undefined) ?? this.#coalescer.track(paymentId, this.#ask(paymentId, source));
    return outcome.then(answerOf);
  }

  /** The call and its recording; a fault of the recording (the store) is a rejection, not kept (service-outcome.ts). */
  async #ask(paymentId: string, source: PaymentUpdateSource): Promise<ServiceOutcome<void>> {
    const said = await outcomeOf(this.fetchFresh(paymentId));
    if ('error' in said) return said;
    await this.observe(said.answer, undefined, source);
    return { answer: undefined };
  }

  /**
   * What the service says of a payment the store has no record of, for a request whose token was issued for it
   * (readable-payment.ts adopts it). Shared, answer or failure, for the coalescing window as `refresh` is: polls and
   * event streams of a payment the store lost (a memory store restarted, an open record dropped as scratch) cost the
   * service one call per window, not one each, and so does a script replaying its status request with the token.
   */
  async lookUp(paymentId: string): Promise<ObservedPayment> {
    return answerOf(await (this.#lookUps.shared(paymentId) ?? this.#lookUps.track(paymentId, outcomeOf(this.fetchFresh(paymentId)))));
  }

  /**
   * A fresh status call, shared with nothing here: for what must not act on an answer from before it asked (what a
   * callback says, whose copies share it in callback-confirmations.ts; the re-checks after it; an operator's re-check).
   */
  fetchFresh(paymentId: string): Promise<ObservedPayment> {
    return this.upstream.paymentStatus(paymentId);
  }

  #next(current: PaymentRecord, view: PaymentRecord['view']): PaymentRecord {
    const now = this.options.clock.now();
    const next = this.#withFollow({ ...current, view, version: current.version + 1, updatedAt: now });
    // On the service's clock, as the expiry it is compared with (a payment paid after its expiry is `late`).
    return view.final && current.finalAt === undefined ? { ...next, finalAt: this.options.serviceClock.now() } : next;
  }

  /** A line of the payment's timeline for the console, when the store keeps them; never fails the caller. */
  appendHistory(paymentId: string, entry: HistoryEntry): Promise<void> {
    return appendHistory(this.options, paymentId, entry);
  }

  /**
   * Open payments are followed until their expiry plus the grace window; final ones no more. The expiry is on the
   * service's clock, the window on this proxy's, which the sweep compares with its own.
   */
  #withFollow(record: PaymentRecord): PaymentRecord {
    const { followUntil: _, ...rest } = record;
    if (record.view.final) return rest;
    const { clock, serviceClock, timeouts } = this.options;
    const expiresAt = parseTimestamp(record.view.expiresAt);
    const until = expiresAt === undefined ? clock.now() + UNKNOWN_EXPIRY_FOLLOW_MS : serviceClock.toLocal(expiresAt) + timeouts.lateGraceMs;
    return { ...rest, followUntil: until };
  }

  /**
   * Writes the record over `expectedVersion`. Where the store can, the announcement of its state is queued in the
   * same write (outbox.ts then finds it queued), so that a process killed between the two never leaves a state
   * recorded that nobody will announce.
   */
  #write(record: PaymentRecord, expectedVersion: number): Promise<boolean> {
    const { store, clock, onPaymentUpdate } = this.options;
    if (store.putPaymentAndEnqueue && onPaymentUpdate && !isIncomplete(record.view)) {
      return store.putPaymentAndEnqueue(record, expectedVersion, clock.now());
    }
    return store.putPayment(record, expectedVersion);
  }

  async #recorded(record: PaymentRecord, source: PaymentUpdateSource, previous?: PaymentRecord['view']): Promise<void> {
    const { view } = record;
    if (view.state !== previous?.state || view.outcome !== previous?.outcome) {
      const at = this.options.clock.now();
      await this.appendHistory(view.id, { at, kind: 'state', state: view.state, outcome: view.outcome, source });
    }
    await this.publish(record);
    if (view.outcome === 'underpaid' && previous?.outcome !== 'underpaid') this.#warnUnderpaid(record);
    // The order is paid because the ledger recorded a payment of it paid, not because a hook heard of it: a
    // proxy with no hook must refuse the order's next create too, even once its unpaid record would expire.
    if (record.view.outcome === 'paid') await this.#settleOrLater(record, 0);
    if (!isIncomplete(record.view)) await this.outbox.announce(record, source, previous?.state);
  }

  /**
   * Says why a payment is underpaid when the service reported it in a currency other than the price's: the proxy
   * has no rate to compare the two, and a service that reports every payment so would make each one a case for the
   * shop to look at, which the operator should learn from the log at once.
   */
  #warnUnderpaid({ view, priced }: PaymentRecord): void {
    if (view.currency.toUpperCase() === priced.currency.toUpperCase()) return;
    this.options.logger.warn(
      'the service reports a payment paid in another currency than its price: it is underpaid, for the shop to look at',
      {
        paymentId: view.id,
        orderId: view.orderId,
        paid: `${view.amount} ${view.currency}`,
        priced: `${priced.amount} ${priced.currency}`,
      },
    );
  }

  /**
   * Settles the order now, or when the create holding its lease is done (tried again with backoff, bounded); once
   * `record` is the payment that paid it, its other payments' pages are told, and when another payment paid it
   * first, `record` is marked as the second payment, a refund to do (the console lists it), hook or not.
   */
  async #settleOrLater(record: PaymentRecord, attempt: number): Promise<void> {
    const settled = await this.orders.settle(record);
    if (settled !== 'busy' && settled.secondPaymentOf === undefined) await this.#tellOtherPayments(record);
    if (settled !== 'busy' && settled.secondPaymentOf !== undefined) await this.#markSecond(record, settled.secondPaymentOf);
    if (settled !== 'busy' || attempt >= SETTLE_TRIES) return;
    const { clock, logger } = this.options;
    clock.setTimeout(
      () => {
        this.#settleOrLater(record, attempt + 1).catch((error) =>
          logger.warn('marking an order paid failed', { orderId: record.view.orderId, error: String(error) }),
        );
      },
      SETTLE_RETRY_MS * 2 ** attempt,
    );
  }

  /** Never fails the caller: the payment is recorded, and a hook's delivery marks it too. */
  async #markSecond({ view }: PaymentRecord, firstId: string): Promise<void> {
    try {
      await markSecondPayment(this.options, view.id, firstId);
    } catch (error) {
      this.options.logger.warn('could not mark a second payment of an order', {
        paymentId: view.id,
        orderId: view.orderId,
        error: describe(error),
      });
    }
  }

  /**
   * `record` paid its order: the other payments' pages hear it on their channels, as they hear their own states.
   * Never fails the caller: a page that misses the news (pub/sub is at most once) gets it from its next request.
   */
  async #tellOtherPayments({ view }: PaymentRecord): Promise<void> {
    const { store, logger } = this.options;
    try {
      const others = ((await store.getOrder(view.orderId))?.payments ?? []).filter((ref) => ref.id !== view.id);
      await Promise.all(others.map((ref) => store.publish(channelOf(ref.id), ORDER_PAID_NEWS)));
    } catch (error) {
      logger.warn("could not tell the order's other payments that it is paid", { orderId: view.orderId, error: String(error) });
    }
  }
}
