/**
 * One call of the shop's onPaymentUpdate under its deadline (`timeouts.hookMs`). A hook that never returns (an HTTP
 * call in the shop's code with no timeout of its own, to a backend that took the connection and went quiet) held its
 * announcement's lease for good, renewed every third of it, and the sweep that had called it waited on it: that
 * process swept no more, and announced nothing more. Past the deadline the call counts as failed and the outbox goes
 * on, retrying it with its usual backoff, and whatever the call answers later is ignored.
 *
 * The proxy cannot stop the shop's code, but it can tell it: `info.signal` is aborted at the deadline, with the
 * HookDeadlineError as its reason, so a hook that hands it to its own fetch ends its request then instead of leaving
 * it open beside the retry. `close()` does not abort it: close lets a call under way finish (within its deadline), as
 * it lets the requests' background announcements settle, and a deploy should not turn every call in flight into a
 * failed attempt.
 */
import type { PaymentView } from '../../shared/payment-view.js';
import { within } from '../../shared/clock.js';
import type { PaymentUpdateInfo } from '../options.js';
import type { ResolvedOptions } from '../resolved-options.js';

/** The hook had not returned when its deadline passed. */
export class HookDeadlineError extends Error {
  constructor(readonly deadlineMs: number) {
    super(`onPaymentUpdate did not return within ${deadlineMs} ms (timeouts.hookMs)`);
    this.name = 'HookDeadlineError';
  }
}

/** Resolves once the hook has returned; rejects as it does, or with HookDeadlineError when its time runs out first. */
export async function callHook(options: ResolvedOptions, payment: PaymentView, info: Omit<PaymentUpdateInfo, 'signal'>): Promise<void> {
  const { onPaymentUpdate, clock, timeouts } = options;
  if (!onPaymentUpdate) return;
  const deadline = new AbortController();
  // Called inside a promise, so that a hook that throws at once is a rejection like any other.
  const call = Promise.resolve().then(() => onPaymentUpdate(payment, { ...info, signal: deadline.signal }));
  if (await within(clock, call, timeouts.hookMs)) return;
  const error = new HookDeadlineError(timeouts.hookMs);
  deadline.abort(error);
  throw error;
}
