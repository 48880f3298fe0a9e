/**
 * What came of an operator's action, in the page's language: the server answers an outcome beside its English
 * `result` (and a refusal's code and facts beside its message). An answer without them, from an older server
 * during a rolling upgrade, or a refusal the page has no words for, is shown as the server worded it.
 */
import type { ActionOutcome } from '../console-api/console-actions.js';
import type { RefusalCode } from '../console-api/console-refusals.js';
import type { ActionAnswer, ConsoleCallError } from './console-client.js';
import { formatTime } from './console-format.js';
import type { ConsoleWords } from './console-i18n.js';

export function actionWords(t: ConsoleWords, answer: ActionAnswer): string {
  if (answer.outcome === undefined || !(answer.outcome in t.actionOutcomes)) return answer.result;
  // Each outcome's words take that outcome's answer; TypeScript cannot follow the pairing through the index.
  const words = t.actionOutcomes[answer.outcome] as (outcome: ActionOutcome) => string;
  return `${words(answer)}${answer.audited === false ? t.notAudited : ''}`;
}

type Facts = Record<string, unknown>;

/**
 * The words of a refusal by its reason, or undefined when the facts give none the page knows (an older server gave
 * no facts). The facts come from the server these words are typed against.
 */
function byReason(words: Record<string, (facts: never) => string>, facts: Facts): string | undefined {
  const { reason } = facts;
  if (typeof reason !== 'string' || !Object.hasOwn(words, reason)) return undefined;
  return (words[reason] as (facts: Facts) => string)(facts);
}

/** How each refusal the page can meet is worded, by its code: a code added to RefusalFacts does not type-check until here. */
const REFUSALS: { [C in RefusalCode]: (t: ConsoleWords, facts: Facts, locale: string) => string | undefined } = {
  service_unavailable: (t, facts) => byReason(t.refusals.service_unavailable, facts),
  store_unavailable: (t) => t.refusals.store_unavailable,
  unauthorized: (t) => t.refusals.unauthorized,
  forbidden: (t, facts) => byReason(t.refusals.forbidden, facts),
  not_found: (t, facts) => byReason(t.refusals.not_found, facts),
  bad_request: (t, facts) => byReason(t.refusals.bad_request, facts),
  busy: (t) => t.refusals.busy,
  not_second_payment: (t) => t.refusals.not_second_payment,
  already_refunded: (t, { operator, at, reference }, locale) =>
    typeof operator === 'string' && typeof at === 'number'
      ? t.refusals.already_refunded(operator, formatTime(at, locale), typeof reference === 'string' ? reference : undefined)
      : undefined,
  not_contradicted: (t) => t.refusals.not_contradicted,
  already_resolved: (t, { operator, at, note }, locale) =>
    typeof operator === 'string' && typeof at === 'number'
      ? t.refusals.already_resolved(operator, formatTime(at, locale), typeof note === 'string' ? note : undefined)
      : undefined,
};

/** A refusal worded in the page's language, or the server's message when the page has no words for it. */
export function refusalWords(t: ConsoleWords, error: ConsoleCallError, locale: string): string {
  const { code, detail } = error;
  if (code === undefined || !Object.hasOwn(REFUSALS, code)) return error.message;
  return REFUSALS[code as RefusalCode](t, detail, locale) ?? error.message;
}
