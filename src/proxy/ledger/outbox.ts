/**
 * Announcements to the shop as an outbox: the one writer of announcements. A new state is recorded first
 * (ledger.ts), then queued here per payment and state, then handed to `onPaymentUpdate` until the hook succeeds:
 * claim -> call -> commit, or reschedule with exponential backoff when it throws. The store's claim makes sure
 * that no two calls for one payment and state run at once, on any instance, and its commit that none runs again.
 * The claim is a lease (`hookLeaseMs`) renewed every third of it while the hook runs, so a hook slower than the
 * lease is not called a second time beside itself; a deliverer that crashed renews nothing, and its lease lapses.
 * Each call has a deadline (`timeouts.hookMs`, infrastructure/hook-call.ts): a hook that has not returned by then
 * has failed, its lease is let go and the state is retried as after a throw, so one hung hook cannot stall the drain.
 * Whichever path found the state delivers it at once; a failed delivery is retried by a timer of this process
 * and by every reconcile sweep, so a shop whose database was down for a minute still hears "paid".
 */
import { randomToken } from '../../shared/bytes.js';
import { describe } from '../http/errors.js';
import type { OrderBook } from './orders.js';
import type { PaymentUpdateSource } from '../options.js';
import type { ResolvedOptions } from '../resolved-options.js';
import { toPaymentView } from '../http/payment-answer.js';
import { appendHistory } from '../infrastructure/timeline.js';
import { markSecondPayment } from './second-payment-mark.js';
import { callHook, HookDeadlineError } from '../infrastructure/hook-call.js';
import { isLoggedFailure } from '../infrastructure/logged-failures.js';
import { keepRenewing, keepStoreLease } from '../infrastructure/lease-renewal.js';
import type { PaymentRecord } from '../infrastructure/store.js';

const FIRST_RETRY_MS = 1_000;
const MAX_RETRY_MS = 5 * 60_000;
/**
 * A busy order (a create holds its lease, on any instance) is asked again this soon. The wait is no failed delivery:
 * the hook was not called, so it counts no attempt (the console's `failing`, the backoff of a later real failure).
 */
const BUSY_RETRY_MS = 250;
/** Failed attempts of one state that all go on the payment's timeline; after them, only the 16th, 32nd, 64th... */
const FAILURES_ON_TIMELINE = 10;

/**
 * A timeline keeps its last 200 entries (console-store.ts), and a hook down for a weekend fails some 600 times: were
 * every failure written, they would push the payment's states off its timeline, leaving the operator who looks
 * into a failing announcement no record of when it was paid or who said so. The log says fewer still
 * (logged-failures.ts), each line with the attempt's number.
 */
function keptOnTimeline(attempt: number): boolean {
  return attempt <= FAILURES_ON_TIMELINE || isLoggedFailure(attempt);
}

export class Outbox {
  #retryTimer: unknown;
  #retryAt = Infinity;
  #closed = false;
  /** Deliveries that requests started and did not wait for (announceInBackground), which close() lets finish. */
  readonly #unawaited = new Set<Promise<void>>();

  constructor(
    private readonly options: ResolvedOptions,
    private readonly orders: OrderBook,
  ) {}

  /** Queues the record's state unless it was queued or announced before. True when this call queued it. */
  async enqueue(record: PaymentRecord): Promise<boolean> {
    if (!this.options.onPaymentUpdate) return false;
    const { id, state } = record.view;
    return this.options.store.enqueueAnnouncement(id, state, this.options.clock.now());
  }

  /**
   * Delivers (payment, state) if it is in the outbox and nobody else holds it. True when the hook was called and
   * succeeded now. A hook that throws is logged and rescheduled, never thrown at the caller.
   */
  async deliver(paymentId: string, state: string, source: PaymentUpdateSource): Promise<boolean> {
    const { onPaymentUpdate, store, clock, timeouts, logger } = this.options;
    if (!onPaymentUpdate) return false;
    const entry = await store.claimAnnouncement(paymentId, state, timeouts.hookLeaseMs);
    if (!entry) return false;
    const stopRenewing = this.#keepHeld(paymentId, state);
    let heard = false;
    let record: PaymentRecord | undefined;
    try {
      record = await store.getPayment(paymentId);
      if (!record || record.view.state !== state) {
        // Superseded by a later state before anyone was told: the later one, queued on its own, is what counts.
        await store.commitAnnouncement(paymentId, state);
        return false;
      }
      let info: { source: PaymentUpdateSource; secondPaymentOf?: string } = { source }; // callHook adds the signal
      if (record.view.outcome === 'paid') {
        const settled = await this.orders.settle(record);
        if (settled === 'busy') {
          await this.#reschedule(paymentId, state, clock.now() + BUSY_RETRY_MS, false);
          return false;
        }
        info = { ...info, ...settled };
        if (settled.secondPaymentOf) await markSecondPayment(this.options, paymentId, settled.secondPaymentOf);
      }
      // A copy of its own: the stored record may be shared and frozen (memory-store.ts).
      await callHook(this.options, structuredClone(toPaymentView(record.view, this.options.serviceClock.now())), info);
      heard = true;
      await store.commitAnnouncement(paymentId, state);
      await appendHistory(this.options, paymentId, { at: clock.now(), kind: 'announcement', state, ok: true });
      if (entry.attempts > 0) {
        // The failures were said (some of them, logged-failures.ts): the end of them is said too.
        logger.info('onPaymentUpdate heard the state at last', {
          paymentId,
          orderId: record.view.orderId,
          state,
          failedAttempts: entry.attempts,
        });
      }
      return true;
    } catch (error) {
      stopRenewing(); // a hook past its deadline holds nothing any more: its retry must be free to claim the state
      const attempts = entry.attempts + 1;
      if (keptOnTimeline(attempts)) {
        const failure = { at: clock.now(), kind: 'announcement', state, ok: false, error: describe(error), attempt: attempts } as const;
        await appendHistory(this.options, paymentId, failure);
      }
      const delay = retryDelay(attempts, this.options.random);
      // The shop's hook is not at fault when it succeeded and the store then failed: the log says which it was.
      const what = heard
        ? 'onPaymentUpdate succeeded but its success could not be recorded (the store failed); it will be called again'
        : error instanceof HookDeadlineError
          ? `onPaymentUpdate did not return within ${error.deadlineMs} ms (timeouts.hookMs): taken as failed, it will be called again and what this call answers later is ignored`
          : 'onPaymentUpdate failed; it will be called again';
      if (isLoggedFailure(attempts)) {
        logger.error(what, {
          paymentId,
          ...(record ? { orderId: record.view.orderId } : {}),
          state,
          attempt: attempts,
          retryInMs: delay,
          nextLineAtAttempt: attempts * 2,
          error: describe(error),
        });
      }
      await this.#reschedule(paymentId, state, clock.now() + delay);
      return false;
    } finally {
      stopRenewing();
    }
  }

  /**
   * An operator's redelivery of the payment's current state (the console). A state still in the outbox is
   * delivered now, through the claim as any retry is; a state the shop already took is handed to the hook once
   * more (the shop takes a state idempotently), under a lease so that two operators pressing at once send one.
   */
  async redeliver(paymentId: string): Promise<'sent' | 'failed' | 'busy' | 'unknown' | 'no-hook'> {
    const { onPaymentUpdate, store, clock, timeouts, logger } = this.options;
    if (!onPaymentUpdate) return 'no-hook';
    const record = await store.getPayment(paymentId);
    if (!record) return 'unknown';
    const { state } = record.view;
    const lease = `redeliver:${paymentId}`;
    const owner = randomToken(8);
    if (!(await store.claim(lease, owner, timeouts.hookLeaseMs))) return 'busy';
    // Held for as long as the redelivery runs, which the hook's deadline (`hookMs`) may set past the lease.
    const stopRenewing = keepStoreLease(this.options, {
      key: lease,
      owner,
      leaseMs: timeouts.hookLeaseMs,
      lostWords: 'a redelivery is still running after its lease lapsed',
      failedWords: 'renewing the lease of a redelivery failed',
      fields: { paymentId },
    });
    try {
      if (!(await store.wasAnnounced(paymentId, state))) {
        await store.enqueueAnnouncement(paymentId, state, clock.now());
        if (await this.deliver(paymentId, state, 'outbox')) return 'sent';
        return (await store.wasAnnounced(paymentId, state)) ? 'sent' : 'failed';
      }
      const settled = record.view.outcome === 'paid' ? await this.orders.settle(record) : {};
      const info = { source: 'outbox' as const, ...(settled === 'busy' ? {} : settled) };
      try {
        await callHook(this.options, structuredClone(toPaymentView(record.view, this.options.serviceClock.now())), info);
      } catch (error) {
        logger.warn('a redelivery to onPaymentUpdate failed', { paymentId, state, error: describe(error) });
        await appendHistory(this.options, paymentId, {
          at: clock.now(),
          kind: 'announcement',
          state,
          ok: false,
          error: describe(error),
          redelivery: true,
        });
        return 'failed';
      }
      await appendHistory(this.options, paymentId, { at: clock.now(), kind: 'announcement', state, ok: true, redelivery: true });
      return 'sent';
    } finally {
      stopRenewing();
      await store.release(lease, owner);
    }
  }

  /** Renews the claim on (payment, state) every third of its lease until the returned function is called. */
  #keepHeld(paymentId: string, state: string): () => void {
    const { clock, store, timeouts, logger } = this.options;
    return keepRenewing({
      clock,
      leaseMs: timeouts.hookLeaseMs,
      renew: () => store.extendAnnouncement(paymentId, state, timeouts.hookLeaseMs),
      lost: () => logger.warn('onPaymentUpdate is still running after its lease lapsed', { paymentId, state }),
      failed: (error) =>
        logger.warn('renewing the lease of a running onPaymentUpdate failed', { paymentId, state, error: describe(error) }),
    });
  }

  /**
   * Queues and delivers a freshly recorded state; a reconcile sweep only queues, and delivers when it drains. A
   * store with putPaymentAndEnqueue queued it with the record (ledger.ts): delivering then finds it held or
   * announced when another path came first. `left` is the state the record was written over, skipped after it.
   */
  async announce(record: PaymentRecord, source: PaymentUpdateSource, left?: string): Promise<void> {
    const { store, onPaymentUpdate, announceInBackground } = this.options;
    if (!onPaymentUpdate) return;
    const { id, state } = record.view;
    const queued = store.putPaymentAndEnqueue ? true : await this.enqueue(record);
    const deliverNow = queued && source !== 'reconcile';
    const skipLeft = left !== undefined && left !== state;
    if (!deliverNow && !skipLeft) return;
    const delivery = (async () => {
      if (deliverNow) await this.deliver(id, state, source);
      if (skipLeft) await this.#skipLeft(id, left, source);
    })();
    if (!announceInBackground || !deliverNow) return void (await delivery);
    // The request answers now; a delivery that fails on the store's side is in the outbox still, for its retry.
    const settled = delivery.then(
      () => {},
      (error) => this.options.logger.error('announcing a state failed; the outbox retries it', { error: describe(error) }),
    );
    this.#unawaited.add(settled);
    void settled.finally(() => this.#unawaited.delete(settled));
  }

  /**
   * A state the payment left before the hook took it (a pending the hook failed on, then paid) is never told
   * (guarantees.md): deliver() finds it overtaken and commits it without calling the hook. Done as soon as the newer
   * state is recorded, rather than at the retry that a hook failing for long puts 5 minutes away, meanwhile waking
   * instances for nothing. A call under way holds it (its retry skips it), and so does the store's failure here.
   */
  async #skipLeft(paymentId: string, state: string, source: PaymentUpdateSource): Promise<void> {
    try {
      await this.deliver(paymentId, state, source);
    } catch (error) {
      this.options.logger.warn('a state the payment left waits for its retry to be skipped', { paymentId, state, error: describe(error) });
    }
  }

  /** Resolves once every delivery that a request left running (announceInBackground) has settled. */
  async settled(): Promise<void> {
    while (this.#unawaited.size) await Promise.allSettled([...this.#unawaited]);
  }

  /**
   * Delivers every entry that is due, then sets this process's timer for the next one waiting (queued by
   * another path, another instance, or before a restart); the number of successful hook calls.
   */
  async drain(source: PaymentUpdateSource, limit = 500): Promise<number> {
    const announced = await this.#drainDue(source, limit);
    const [next] = await this.options.store.dueAnnouncements(Number.MAX_SAFE_INTEGER, 1);
    if (next) this.#wakeAt(next.dueAt);
    return announced;
  }

  async #drainDue(source: PaymentUpdateSource, limit: number): Promise<number> {
    const { store, clock } = this.options;
    let announced = 0;
    for (const entry of await store.dueAnnouncements(clock.now(), limit)) {
      if (await this.deliver(entry.paymentId, entry.state, source)) announced++;
    }
    return announced;
  }

  /** Stops the retry timer (the proxy is closing). */
  close(): void {
    this.#closed = true;
    this.options.clock.clearTimeout(this.#retryTimer);
  }

  async #reschedule(paymentId: string, state: string, dueAt: number, failed = true): Promise<void> {
    await this.options.store.rescheduleAnnouncement(paymentId, state, dueAt, failed);
    this.#wakeAt(dueAt);
  }

  /** One timer for this process, set for the earliest retry it knows of. */
  #wakeAt(at: number): void {
    const { clock } = this.options;
    if (this.#closed || at >= this.#retryAt) return;
    clock.clearTimeout(this.#retryTimer);
    this.#retryAt = at;
    this.#retryTimer = clock.setTimeout(
      () => {
        this.#retryAt = Infinity;
        this.drain('outbox').catch((error) => this.options.logger.error('retrying announcements failed', { error: describe(error) }));
      },
      Math.max(0, at - clock.now()),
    );
  }
}

/** 1 s, 2 s, 4 s ... capped at 5 minutes, each with up to half of it as jitter. */
export function retryDelay(attempt: number, random: () => number): number {
  const base = Math.min(MAX_RETRY_MS, FIRST_RETRY_MS * 2 ** Math.max(0, attempt - 1));
  return Math.round(base / 2 + (random() * base) / 2);
}
