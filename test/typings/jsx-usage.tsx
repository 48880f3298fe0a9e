// What a React 19 or Preact app may write with the published JSX typings, and what they must refuse: each
// expected error below fails the check when the typings let the mistake through. The typings come from the
// entry file beside it (react.ts or preact.ts), which its tsconfig compiles together with this one.
import 'payin-checkout';

export const checkout = (
  <payin-checkout
    endpoint="/payin"
    orderId="A-1001"
    method="upi"
    autostart
    pollInterval={3000}
    onpayin-paid={(event) => event.detail.payment.amount.toUpperCase()}
    onpayin-error={(event) => (event.detail.retryable ? event.detail.code : event.detail.message)}
  />
);

export const byAttribute = <payin-checkout order-id="A-1001" methods="sbp upi" poll-interval="5000" />;

// @ts-expect-error an order id is a string
export const numericOrder = <payin-checkout orderId={1001} />;

// @ts-expect-error the paid event carries the payment, not an error code
export const wrongDetail = <payin-checkout onpayin-paid={(event) => event.detail.code} />;
