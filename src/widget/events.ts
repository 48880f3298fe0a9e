/**
 * The element's events, typed once and dispatched in one place. Every event bubbles and is composed, so that a
 * shop can listen on the document or on a framework wrapper around the shadow root; the map below is merged into
 * HTMLElementEventMap (payin-checkout.ts) so that `el.addEventListener('payin-paid', (e) => e.detail.payment)`
 * type-checks without casts.
 */
import type { ErrorCode } from '../shared/error-codes.js';
import type { PaymentView } from '../shared/payment-view.js';

/** Detail of every payment event. */
export interface PaymentEventDetail {
  payment: PaymentView;
  /**
   * True when this page did not watch the change happen: the payment was found in this state after a reload
   * (or by another tab that follows the payment).
   */
  resumed: boolean;
}

/** Codes the proxy answers with (src/shared/error-codes.ts), plus what only the browser can see. */
export type WidgetErrorCode =
  | ErrorCode
  /** The request never got an answer (offline, DNS, CORS, connection reset). */
  | 'network_error'
  /** No answer within the client's own time limit. */
  | 'timeout'
  /** An answer that is not the contract's JSON. */
  | 'bad_response'
  /** The widget is missing something it needs (no order id, no method). */
  | 'misconfigured';

export interface ErrorEventDetail {
  code: WidgetErrorCode;
  /** For developers (logs, monitoring); the shopper sees a translated text chosen by `code`. */
  message: string;
  /** Whether repeating the same request may succeed without any change. */
  retryable: boolean;
}

export interface PayinEventMap {
  'payin-created': CustomEvent<PaymentEventDetail>;
  'payin-state': CustomEvent<PaymentEventDetail>;
  'payin-paid': CustomEvent<PaymentEventDetail>;
  /** Final: the payer paid less than the order's price (`payment.amount` of `payment.initAmount`). Do not ship. */
  'payin-underpaid': CustomEvent<PaymentEventDetail>;
  /**
   * Final for the page: the shop re-priced the order, so this payment is no longer offered (start again for the
   * new price). If it is paid anyway the shop hears `superseded`, never `paid`.
   */
  'payin-superseded': CustomEvent<PaymentEventDetail>;
  'payin-expired': CustomEvent<PaymentEventDetail>;
  'payin-failed': CustomEvent<PaymentEventDetail>;
  'payin-error': CustomEvent<ErrorEventDetail>;
}

export type PayinEventName = keyof PayinEventMap;

type DetailOf<K extends PayinEventName> = PayinEventMap[K] extends CustomEvent<infer D> ? D : never;

/** The one way the element dispatches: bubbling, composed, not cancelable. */
export function emit<K extends PayinEventName>(target: EventTarget, name: K, detail: DetailOf<K>): void {
  target.dispatchEvent(new CustomEvent(name, { detail, bubbles: true, composed: true }));
}
