/**
 * *mark resolved*: the operator's word that a payment the service contradicted (money that came after it expired, a
 * reversal or a dispute after it was paid) was dealt with at the service, outside this product: a refund made, the
 * goods shipped, a dispute answered. It leaves the contradictions to look into and is listed as resolved, with who,
 * when and the operator's note, so that the count under Contradicted is the work left. Marked once per
 * contradiction: of two operators at once one wins and the other is told whose mark it is.
 */
import type { ProxyContext } from '../proxy/context.js';
import type { PaymentRecord } from '../proxy/infrastructure/store.js';
import { markResolved as writeResolution } from '../proxy/ledger/contradiction-marks.js';
import { noPayment, refusal } from './console-answers.js';
import { type ActionResult, typedText } from './console-actions.js';

/** The longest note kept: a line saying what was done and its reference, not a report. */
export const NOTE_MAX = 200;

/** The note an operator gave with *mark resolved* (the form field `note`), trimmed; empty is none. */
export function noteOf(form: URLSearchParams): string | undefined {
  return typedText(form.get('note'), {
    max: NOTE_MAX,
    tooLong: `the note is longer than ${NOTE_MAX} characters: say in a line what was done at the service`,
    control: 'the note holds a control character',
    reason: 'note_control_character',
  });
}

export async function markResolved(
  ctx: ProxyContext,
  record: PaymentRecord,
  operator: string,
  note: string | undefined,
): Promise<ActionResult> {
  const marking = await writeResolution(ctx.options, record.view.id, { operator, ...(note ? { note } : {}) });
  if ('already' in marking) {
    const { operator: by, at, note: theirs } = marking.already;
    const said = theirs ? `, note: ${theirs}` : '';
    throw refusal(409, 'already_resolved', `already marked resolved by ${by} at ${new Date(at).toISOString()}${said}: not marked again`, {
      operator: by,
      at,
      ...(theirs ? { note: theirs } : {}),
    });
  }
  if ('refused' in marking) {
    if (marking.refused === 'unknown') throw noPayment();
    throw refusal(
      409,
      'not_contradicted',
      'only a payment the service contradicted can be marked resolved: the service has said nothing against this one',
      {},
    );
  }
  return {
    result: `marked resolved${note ? ` (${note})` : ''}`,
    changed: true,
    outcome: 'marked-resolved',
    ...(note ? { note } : {}),
  };
}
