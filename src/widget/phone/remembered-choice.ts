/**
 * The shopper's last UPI app and last SBP bank, kept on the device (localStorage) so that the next checkout
 * offers them first. Only an app id or a bank's schema is kept, never anything about a payment. A shop can turn
 * it off (`no-remember`); storage that throws (private modes, sandboxed frames) just remembers nothing.
 */
import { PREFIX } from '../session-store.js';

export type ChoiceKind = 'upi-app' | 'sbp-bank';

export function recallChoice(kind: ChoiceKind): string | undefined {
  try {
    return localStorage.getItem(PREFIX + kind) ?? undefined;
  } catch {
    return undefined;
  }
}

export function rememberChoice(kind: ChoiceKind, value: string): void {
  try {
    localStorage.setItem(PREFIX + kind, value);
  } catch {
    // Not remembered: the usual order next time.
  }
}
