/**
 * The package's browser entry: importing it registers <payin-checkout> and exposes its types.
 */
export type { Outcome } from '../shared/outcome.js';
export type { PaymentView, Requisites } from '../shared/payment-view.js';
export type { ErrorEventDetail, PayinEventMap, PayinEventName, PaymentEventDetail, WidgetErrorCode } from './events.js';
export { PayinCheckout, TAG_NAME } from './payin-checkout.js';
export type { TextOverrides } from './translations/overlay.js';
export type { Translation } from './translations/translation.js';
export type { Screen } from './views/view-context.js';
