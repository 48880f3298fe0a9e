/**
 * What the element's live region says (a polite `role="status"`, read by a screen reader without moving focus):
 * how a payment ended, "Copied", and what appears without a change of screen or of focus: the notices about the
 * connection and a check that stopped, the error screen of a payment that started by itself, the time left at
 * the countdown's marks (5, 2 and 1 minutes, 30 seconds) and the late screen. A final screen comes first: its
 * notices are gone.
 */
import { isFinalOutcome, type Outcome } from '../../shared/outcome.js';
import type { FlowState } from '../controllers/payment-flow.js';
import { errorText } from '../error-meaning.js';
import type { Translation } from '../translations/translation.js';
import type { Screen } from './view-context.js';

/** `left`: the countdown's last mark crossed, in seconds; `copied`: a copy button was just pressed. */
export function spoken(t: Translation, screen: Screen, state: FlowState, left: number | undefined, copied: boolean): string {
  if (copied) return t.copied;
  // A final screen is named as its payment's final outcome is.
  if (isFinalOutcome(screen as Outcome)) return t.headings[screen];
  if (screen === 'error') return errorText(state.error, t);
  if (state.stalled) return t.followStopped;
  if (state.trouble) return t.connectionTrouble;
  if (screen === 'late') return t.headings[screen];
  if (left === undefined || screen !== 'pay') return '';
  return left >= 60 ? t.minutesLeft(left / 60) : t.secondsLeft(left);
}
