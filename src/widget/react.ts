/**
 * JSX typings of <payin-checkout> for React 19, which passes custom-element props as properties and listens to
 * custom events through `on<event-name>` props. Types only: `import type {} from 'payin-checkout/react'` once
 * in a React app, and `<payin-checkout orderId={id} onpayin-paid={(e) => e.detail.payment} />` type-checks.
 */
import type { DetailedHTMLProps, HTMLAttributes } from 'react';
import type { ErrorEventDetail, PaymentEventDetail } from './events.js';
import type { PayinCheckout } from './payin-checkout-element.js';

type Handler<D> = (event: CustomEvent<D>) => void;

export interface PayinCheckoutJsxProps extends DetailedHTMLProps<HTMLAttributes<PayinCheckout>, PayinCheckout> {
  endpoint?: string;
  orderId?: string;
  method?: string;
  methods?: string;
  autostart?: boolean;
  pollInterval?: number;
  'onpayin-created'?: Handler<PaymentEventDetail>;
  'onpayin-state'?: Handler<PaymentEventDetail>;
  'onpayin-paid'?: Handler<PaymentEventDetail>;
  'onpayin-expired'?: Handler<PaymentEventDetail>;
  'onpayin-failed'?: Handler<PaymentEventDetail>;
  'onpayin-error'?: Handler<ErrorEventDetail>;
}

declare module 'react' {
  // eslint-disable-next-line @typescript-eslint/no-namespace
  namespace JSX {
    interface IntrinsicElements {
      'payin-checkout': PayinCheckoutJsxProps;
    }
  }
}
