/**
 * What each error code means to the shopper, in one place: which sentence they read (by kind: their
 * connection, an order already paid, a checkout set up wrongly, an order or payment the proxy does not offer this
 * page, the service) and what they can do about it
 * (repeat the same request, start again, or nothing: a paid order and a broken setup are not theirs to fix).
 */
import type { ErrorEventDetail } from './events.js';
import type { ErrorKind, Translation } from './translations/translation.js';

/** The sentence the shopper reads for `error` (a missing one reads as a failure of the service). */
export function errorText(error: ErrorEventDetail | undefined, t: Translation): string {
  return t.errors[errorKind(error?.code ?? 'internal')];
}

export function errorKind(code: string): ErrorKind {
  if (code === 'network_error' || code === 'timeout') return 'network';
  if (code === 'order_paid') return 'paid';
  // The order refused (or the payment unknown) is no failure of the service: waiting will not help.
  if (code === 'not_found') return 'refused';
  return code === 'misconfigured' || code === 'bad_request' || code === 'unknown_field' ? 'setup' : 'other';
}

/** The label of the button the error screen offers (repeat what failed, or start over), or none. */
export function errorActionLabel(error: ErrorEventDetail | undefined, t: Translation): string | undefined {
  const code = error?.code ?? 'internal';
  if (code === 'order_paid' || code === 'misconfigured') return undefined;
  return error?.retryable ? t.retry : t.startAgain;
}
