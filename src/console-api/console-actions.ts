/**
 * What an operator can do to a payment, each through the ledger's own writers and each written to the audit log:
 * *re-check* asks the service about the payment and records the answer exactly as a reconcile sweep does (then
 * delivers its announcement, as a sweep's drain would); a service that does not answer changes nothing and is
 * said so. *redeliver* hands the payment's current state to the shop's hook again through the outbox. *mark
 * refunded* records the operator's word that a second payment was refunded at the service; *mark resolved*
 * (resolve-action.ts), that a contradiction of the service was dealt with there.
 */
import type { ProxyContext } from '../proxy/context.js';
import type { ConsoleStore } from '../proxy/infrastructure/console-store.js';
import { describe } from '../proxy/http/errors.js';
import type { PaymentRecord } from '../proxy/infrastructure/store.js';
import { UpstreamError } from '../proxy/infrastructure/upstream-client.js';
import { markRefunded as writeRefundMark } from '../proxy/ledger/refund-marks.js';
import { isMisleading } from '../shared/misleading-text.js';
import { ConsoleError, noPayment, refusal } from './console-answers.js';
import type { BadText, NoAnswer } from './console-refusals.js';

/**
 * What came of an action, for a page to word in the operator's own language (`result` is the same in English, for
 * the audit log and for API users who read it). `state` is the payment's state after a re-check.
 */
export type ActionOutcome =
  | { outcome: 'changed'; state: string }
  | { outcome: 'unchanged'; state: string }
  | { outcome: 'marked-refunded'; reference?: string }
  | { outcome: 'marked-resolved'; note?: string }
  | { outcome: Exclude<RedeliveryOutcome, 'busy'> };

type RedeliveryOutcome = keyof typeof REDELIVERY_WORDS;

export type ActionResult = ActionOutcome & {
  /** A word for the screen and the audit log. */
  result: string;
  changed?: boolean;
};

export async function recheck(ctx: ProxyContext, record: PaymentRecord): Promise<ActionResult> {
  const { ledger, outbox } = ctx;
  let observed: Awaited<ReturnType<typeof ledger.fetchFresh>>;
  try {
    observed = await ledger.fetchFresh(record.view.id);
  } catch (error) {
    ctx.options.logger.warn('a console re-check could not reach the service', { paymentId: record.view.id, error: describe(error) });
    const why = whyNoAnswer(error);
    throw refusal(502, 'service_unavailable', why.message, why.facts);
  }
  const after = await ledger.observe(observed, undefined, 'reconcile');
  const changed = after !== undefined && after.version !== record.version;
  if (after && changed) await outbox.deliver(after.view.id, after.view.state, 'reconcile');
  const state = after?.view.state ?? record.view.state;
  return { result: changed ? `now ${state}` : `unchanged (${state})`, changed, outcome: changed ? 'changed' : 'unchanged', state };
}

/**
 * What the operator is told about a status call that brought no state, in English and as facts for a page to word
 * in the operator's language. A service that answered and refused is not one that "did not answer": a 404 or 401
 * points at the service's address or the merchant's credentials (a sandbox's payments looked up at the live
 * service), which trying again later does not mend. A refusal may come with HTTP 200 and `status: false`; its code
 * then stands for the HTTP status.
 */
function whyNoAnswer(error: unknown): { message: string; facts: NoAnswer } {
  const kind = error instanceof UpstreamError ? error.kind : 'network';
  const httpStatus = error instanceof UpstreamError ? error.httpStatus : undefined;
  const refusalCode = error instanceof UpstreamError && httpStatus === undefined ? error.refusalCode : undefined;
  const status = httpStatus ?? refusalCode;
  const said = httpStatus === undefined ? `code ${status}` : `HTTP ${status}`;
  const which = { ...(httpStatus === undefined ? {} : { httpStatus }), ...(refusalCode === undefined ? {} : { refusalCode }) };
  if ((kind === 'http' || kind === 'refused') && status === 404) {
    return {
      message: `the payment service does not know this payment (${said}): nothing was changed; check that PAYIN_BASE_URL and the merchant are the ones that created it`,
      facts: { reason: 'unknown_payment', ...which },
    };
  }
  if ((kind === 'http' || kind === 'refused') && status !== undefined && status < 500) {
    return {
      message: `the payment service refused the status call (${said}): nothing was changed; check the merchant's credentials`,
      facts: { reason: 'refused', ...which },
    };
  }
  if (kind === 'signature') {
    return {
      message: "the payment service's answer failed its signature check: nothing was changed; check the merchant's secret",
      facts: { reason: 'signature' },
    };
  }
  if (kind === 'malformed') {
    return {
      message: 'the payment service answered something that is not this payment: nothing was changed; try again later',
      facts: { reason: 'malformed' },
    };
  }
  if (kind === 'http') {
    return {
      message: `the payment service failed (HTTP ${status ?? '?'}): nothing was changed; try again later`,
      facts: { reason: 'failed', ...which },
    };
  }
  return { message: 'the payment service did not answer: nothing was changed; try again later', facts: { reason: 'no_answer' } };
}

const REDELIVERY_WORDS = {
  sent: 'sent: the shop took it',
  failed: "the shop's hook did not take it",
  busy: 'already being redelivered by someone else',
  unknown: 'no such payment',
  'no-hook': 'no announcement hook is configured',
} as const;

export async function redeliver(ctx: ProxyContext, record: PaymentRecord): Promise<ActionResult> {
  const outcome = await ctx.outbox.redeliver(record.view.id);
  if (outcome === 'busy') throw refusal(409, 'busy', REDELIVERY_WORDS.busy, {});
  return { result: REDELIVERY_WORDS[outcome], outcome };
}

/** The longest refund reference kept: a service's refund id is far shorter; a pasted page is not a reference. */
export const REFERENCE_MAX = 100;

/**
 * The reference an operator gave with *mark refunded* (the form field `reference`), trimmed; empty is none. Too long
 * or holding control characters is refused rather than cut: a cut id would name another refund, or none.
 */
export function referenceOf(form: URLSearchParams): string | undefined {
  return typedText(form.get('reference'), {
    max: REFERENCE_MAX,
    tooLong: `the refund reference is longer than ${REFERENCE_MAX} characters: give the refund's id at the payment service`,
    control: 'the refund reference holds a control character',
    reason: 'reference_control_character',
  });
}

/**
 * What an operator typed in a field of an action's form, trimmed; empty is none. Too long, or holding control
 * characters (a pasted tab, a direction mark that would make the audit log read otherwise), is refused, not cut.
 */
export function typedText(
  value: string | null,
  words: { max: number; tooLong: string; control: string; reason: BadText },
): string | undefined {
  const text = (value ?? '').trim();
  if (text.length > words.max) throw new ConsoleError(400, 'bad_request', words.tooLong);
  if (isMisleading(text)) throw refusal(400, 'bad_request', words.control, { reason: words.reason });
  return text || undefined;
}

/**
 * *mark refunded* records that the operator refunded a second payment at the payment service (outside this
 * product): it leaves the refunds to do and is listed as refunded, with who, when and the reference. Marked once: of
 * two operators at once one wins, and the other is told whose mark it is. Only a second payment can be marked.
 */
export async function markRefunded(
  ctx: ProxyContext,
  record: PaymentRecord,
  operator: string,
  reference: string | undefined,
): Promise<ActionResult> {
  const marking = await writeRefundMark(ctx.options, record.view.id, { operator, ...(reference ? { reference } : {}) });
  if ('already' in marking) {
    const { operator: by, at, reference: theirs } = marking.already;
    const ref = theirs ? `, reference ${theirs}` : '';
    throw refusal(409, 'already_refunded', `already marked refunded by ${by} at ${new Date(at).toISOString()}${ref}: not marked again`, {
      operator: by,
      at,
      ...(theirs ? { reference: theirs } : {}),
    });
  }
  if ('refused' in marking) {
    if (marking.refused === 'unknown') throw noPayment();
    throw refusal(
      409,
      'not_second_payment',
      'only a second payment of an order can be marked refunded: this one is not, so there is no refund to record',
      {},
    );
  }
  return {
    result: `marked refunded${reference ? ` (reference ${reference})` : ''}`,
    changed: true,
    outcome: 'marked-refunded',
    ...(reference ? { reference } : {}),
  };
}

/** Writes the action to the audit log; a store that fails here is an error the operator sees. */
export async function audit(store: ConsoleStore, at: number, operator: string, action: string, result: string, paymentId?: string) {
  await store.appendAudit({ at, operator, action, result, ...(paymentId === undefined ? {} : { paymentId }) });
}

/**
 * Writes what came of an action on a payment to the audit log, and answers the word for the screen. The action is
 * done by then (the shop heard the redelivery, the re-check recorded the service's answer): a ledger that fails
 * to take the line must not turn it into 'nothing was done; try again', which would do it twice. The operator is
 * told the line is missing (`audited: false`), and the log keeps it.
 */
export async function auditAction(
  ctx: ProxyContext,
  store: ConsoleStore,
  { operator, action, result, paymentId }: { operator: string; action: string; result: string; paymentId: string },
): Promise<{ result: string; audited: boolean }> {
  try {
    await audit(store, ctx.options.clock.now(), operator, action, result, paymentId);
    return { result, audited: true };
  } catch (error) {
    ctx.options.logger.error('the console could not write an action to the audit log', {
      operator,
      action,
      result,
      paymentId,
      error: describe(error),
    });
    return { result: `${result} (not in the audit log: the ledger could not be written)`, audited: false };
  }
}
