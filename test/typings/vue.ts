// What a Vue 3 template may bind with the published typings (Volar checks templates against GlobalComponents),
// and what they must refuse (each @ts-expect-error fails the check when the typings let the mistake through).
import type { GlobalComponents } from 'vue';
import type {} from 'payin-checkout/vue';

type Props = InstanceType<GlobalComponents['payin-checkout']>['$props'];

export const checkout: Props = {
  endpoint: '/payin',
  orderId: 'A-1001',
  method: 'upi',
  pollInterval: 3000,
  onPayinPaid: (event) => void event.detail.payment.amount.toUpperCase(),
  onPayinError: (event) => void (event.detail.retryable ? event.detail.code : event.detail.message),
};

// @ts-expect-error an order id is a string
export const numericOrder: Props = { orderId: 1001 };

// @ts-expect-error the paid event carries the payment, not an error code
export const wrongDetail: Props = { onPayinPaid: (event) => void event.detail.code };
