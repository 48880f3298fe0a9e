/**
 * What came of an operator's action, in the page's language: the server answers an outcome beside its English
 * `result` (and a refusal's code and facts beside its message). An answer without them, from an older server
 * during a rolling upgrade, or a refusal the page has no words for, is shown as the server worded it.
 */
import type { ActionOutcome } from '../console-api/console-actions.js';
import { type ActionAnswer, ConsoleCallError } from './console-client.js';
import { formatTime } from './console-format.js';
import type { ConsoleWords } from './console-i18n.js';

export function actionWords(t: ConsoleWords, answer: ActionAnswer): string {
  if (answer.outcome === undefined || !(answer.outcome in t.actionOutcomes)) return answer.result;
  // Each outcome's words take that outcome's answer; TypeScript cannot follow the pairing through the index.
  const words = t.actionOutcomes[answer.outcome] as (outcome: ActionOutcome) => string;
  return `${words(answer)}${answer.audited === false ? t.notAudited : ''}`;
}

/** A refusal worded in the page's language, or the server's message when the page has no words for it. */
export function refusalWords(t: ConsoleWords, error: ConsoleCallError, locale: string): string {
  const { code, detail } = error;
  if (code === 'busy' || code === 'not_second_payment') return t.refusals[code];
  if (code === 'already_refunded' && typeof detail.operator === 'string' && typeof detail.at === 'number') {
    const reference = typeof detail.reference === 'string' ? detail.reference : undefined;
    return t.refusals.already_refunded(detail.operator, formatTime(detail.at, locale), reference);
  }
  return error.message;
}

/** The refusal as the page shows it: the same error, its message in the page's language. */
export function wordedRefusal(t: ConsoleWords, error: unknown, locale: string): unknown {
  if (!(error instanceof ConsoleCallError)) return error;
  return new ConsoleCallError(error.status, refusalWords(t, error, locale), error.code, error.detail);
}
