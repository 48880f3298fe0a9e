/**
 * Reconciliation: the proxy follows every payment it created until it is final, or past its expiry plus a grace
 * window for late payments (longer while the service is still deciding it), with no browser open and no callback
 * arriving. One sweep pages through the store's follow index, asks the service about the due payments in batches
 * (`paymentIds`, up to 50 per call), records what it says through the ledger and delivers every announcement that
 * is due. One sweep runs at a time across instances (the ledger's sweep lease); the announcements are delivered
 * by every instance's sweep, since each delivery has a lease of its own. `proxy.reconcile()` runs one for
 * cron jobs and serverless; on a long-lived server the proxy runs one every `reconcileEveryMs` by itself
 * (create-proxy.ts).
 */
import type { ProviderPayment } from '../../shared/provider-payment.js';
import { unconfirmedFinish } from '../ledger/payment-view-mapper.js';
import { stageOf } from '../ledger/transitions.js';
import { describe } from '../http/errors.js';
import type { Ledger } from '../ledger/ledger.js';
import type { ResolvedOptions } from '../resolved-options.js';
import type { Outbox } from '../ledger/outbox.js';
import type { UpstreamClient } from '../infrastructure/upstream-client.js';

export interface ReconcileResult {
  /** Payments asked about at the service. */
  checked: number;
  /** Of those, how many the service's answer changed. */
  changed: number;
  /** Announcements the shop's hook took during the sweep. */
  announced: number;
}

const PAGE = 200;
const BATCH = 50;
const MAX_PAGES = 10_000;

/**
 * `stopping` is asked before each page and each batch: a proxy that closes ends its sweep after the batch it is
 * recording, and leaves the due announcements to the next process.
 */
export async function reconcile(
  options: ResolvedOptions,
  ledger: Ledger,
  outbox: Outbox,
  upstream: UpstreamClient,
  stopping: () => boolean = () => false,
): Promise<ReconcileResult> {
  const { store, clock, logger } = options;
  const result: ReconcileResult = { checked: 0, changed: 0, announced: 0 };
  const swept = await ledger.whileSweeping(async () => {
    let after: string | undefined;
    for (let page = 0; page < MAX_PAGES && !stopping(); page++) {
      const ids = await store.followedPayments(PAGE, after);
      if (ids.length === 0) break;
      after = ids[ids.length - 1];
      const due: string[] = [];
      // Past their window: asked once more before they are let go. A payment paid while nothing swept (the proxy
      // down for the night, the service or the store unreachable) and whose callbacks the service gave up on
      // would otherwise be dropped unasked, and the shop would never hear "paid".
      const closing = new Set<string>();
      for (const id of ids) {
        const record = await store.getPayment(id);
        if (!record) continue;
        if (record.view.final) {
          await ledger.unfollow(record);
          continue;
        }
        if ((record.followUntil ?? 0) <= clock.now()) closing.add(id);
        due.push(id);
      }
      for (let i = 0; i < due.length && !stopping(); i += BATCH) {
        const batch = due.slice(i, i + BATCH);
        let answers: ProviderPayment[];
        try {
          const list = await upstream.statusOfPayments(batch);
          answers = list.payments;
          for (const { id, error } of list.unreadable) {
            closing.delete(id); // not answered: still followed
            logger.warn('a payment in a reconcile answer cannot be read; nothing of it is recorded, the next sweep asks again', {
              paymentId: id,
              error,
            });
          }
        } catch (error) {
          logger.warn('a reconcile status call failed; the next sweep asks again', { payments: batch.length, error: describe(error) });
          continue;
        }
        result.checked += batch.length;
        const deciding = new Set<string>();
        for (const answer of answers) {
          if (!batch.includes(answer.id)) continue;
          if (stillDeciding(answer)) deciding.add(answer.id);
          const before = (await store.getPayment(answer.id))?.version;
          try {
            const after = await ledger.observe(answer, undefined, 'reconcile');
            if (after && after.version !== before) result.changed++;
          } catch (error) {
            closing.delete(answer.id);
            logger.warn('a reconcile answer could not be recorded', { paymentId: answer.id, error: describe(error) });
          }
        }
        // The service has answered past the window and what it said is recorded: the payment is let go, unless the
        // service is still deciding it, which it may do hours later, and its callbacks may never come. Nor when the
        // answer moved the window past now: an expiry learned only now (the provisional window of a record that
        // lacked one closed while the service was out of reach) is followed as any other.
        for (const id of batch.filter((id) => closing.has(id))) {
          const record = await store.getPayment(id);
          if (!record || (record.followUntil ?? 0) > clock.now()) continue;
          await (deciding.has(id) ? ledger.followOn(record) : ledger.unfollow(record));
        }
      }
    }
    if (!stopping()) result.announced = await outbox.drain('reconcile');
  });
  // The due announcements are delivered all the same while another holds the sweep: each delivery takes a lease of
  // its own. The holder may be a process killed mid-sweep, whose lease lapses only after sweepLeaseMs (5 minutes),
  // and the retries of a hook that failed before the kill were timers of that process: "paid" waited that long.
  if (!swept && !stopping()) result.announced = await outbox.drain('reconcile');
  return result;
}

/**
 * True when the service's answer says it has the payment in hand: the payer said they paid (in_check), a dispute,
 * or a finish whose `status` is not set yet. Only the payer's late payment is no longer expected once the window
 * has passed; the service's decision on a payment it is checking is.
 */
function stillDeciding(answer: ProviderPayment): boolean {
  return stageOf(answer.state) === 'checking' || unconfirmedFinish(answer);
}

/**
 * Runs a sweep every `everyMs` on the injected clock until stopped, one at a time; the timer does not keep a
 * process alive by itself. A failing sweep is logged and the next one runs on schedule.
 */
export function startReconcileLoop(options: ResolvedOptions, sweep: () => Promise<unknown>, everyMs: number): () => void {
  const { clock, logger } = options;
  let timer: unknown;
  let stopped = false;
  const tick = () => {
    sweep()
      .catch((error) => logger.error('a reconcile sweep failed', { error: describe(error) }))
      .finally(() => {
        if (!stopped) timer = clock.setTimeout(tick, everyMs);
      });
  };
  timer = clock.setTimeout(tick, everyMs);
  return () => {
    stopped = true;
    clock.clearTimeout(timer);
  };
}
