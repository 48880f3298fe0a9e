/**
 * What the screen templates may read and do. Templates are plain functions of this context (no state, no
 * async work): the element builds it once per render from its controllers, so that every screen can be read,
 * and reviewed, on its own.
 */
import type { PaymentView } from '../../shared/payment-view.js';
import type { PaymentFlowController } from '../controllers/payment-flow.js';
import type { Translation } from '../translations/translation.js';

export type Screen =
  | 'start'
  | 'choose'
  | 'loading'
  | 'preparing'
  | 'pay'
  | 'checking'
  | 'paid'
  | 'underpaid'
  | 'expired'
  | 'failed'
  | 'error';

export interface ViewContext {
  t: Translation;
  /** BCP 47 tag for Intl. */
  locale: string;
  flow: PaymentFlowController;
  /** The methods the shopper may choose from (empty or one: no choice). */
  methods: string[];
  /** A phone: the QR cannot be scanned from the same screen, a button opens the payment app instead. */
  isPhone: boolean;
  /** Key of the value just copied (its button says "Copied"), if any. */
  copied: string | undefined;
  copy(key: string, text: string): void;
  start(method?: string): void;
  /** Back to the method choice (or the pay button), forgetting the payment. */
  restart(): void;
  retry(): void;
  refresh(): void;
}

/** Which screen a flow state is. */
export function screenOf(flow: PaymentFlowController, methods: string[], method: string | undefined): Screen {
  if (flow.phase === 'error') return 'error';
  const payment: PaymentView | undefined = flow.payment;
  if (payment) {
    if (payment.final) return payment.outcome as 'paid' | 'underpaid' | 'expired' | 'failed';
    if (payment.outcome === 'checking') return 'checking';
    return payment.requisites ? 'pay' : 'preparing';
  }
  if (flow.phase === 'creating' || flow.phase === 'resuming') return 'loading';
  return !method && methods.length > 1 ? 'choose' : 'start';
}
