/**
 * What the screen templates may read and do. Templates are plain functions of this context (no state, no
 * async work): the element builds it once per render from its controllers, so that every screen can be read,
 * and reviewed, on its own.
 */
import type { FlowState, PaymentFlowController } from '../controllers/payment-flow.js';
import type { PartName, Parts } from '../parts/part-types.js';
import type { PhoneScreen } from '../phone/phone-layout.js';
import type { Translation } from '../translations/translation.js';

export type Screen =
  | 'start'
  | 'choose'
  | 'loading'
  | 'preparing'
  | 'pay'
  | 'checking'
  | 'late'
  | 'paid'
  | 'underpaid'
  | 'superseded'
  | 'expired'
  | 'failed'
  | 'error';

export interface ViewContext {
  t: Translation;
  /** BCP 47 tag for Intl. */
  locale: string;
  /** The payment flow: the buttons start, retry, refresh and reset it (back to the method choice or the pay button). */
  flow: PaymentFlowController;
  state: FlowState;
  /** The methods the shopper may choose from (empty or one: no choice). */
  methods: string[];
  /** Key of the value just copied (its button says "Copied"), if any. */
  copied: string | undefined;
  copy(key: string, text: string): void;
  /** An on-demand part, once loaded (asking starts the load and draws again when it ends); undefined until then or when it failed. */
  part<K extends PartName>(name: K): Parts[K] | undefined;
  /** On a phone, once the phone part is there: the pay screen's phone layout (the QR folded, the app choosers first). */
  phoneLayout(): PhoneScreen | undefined;
}

/** Which screen a flow state is. */
export function screenOf(state: FlowState, methods: string[], method: string | undefined): Screen {
  // A paid order is no error to the shopper: a new tab or a return from the bank app asked to pay it again.
  if (state.phase === 'error') return state.error?.code === 'order_paid' ? 'paid' : 'error';
  const payment = state.payment;
  if (payment) {
    if (payment.final && !state.late) return payment.outcome as 'paid' | 'underpaid' | 'superseded' | 'expired' | 'failed';
    if (payment.outcome === 'checking') return 'checking';
    if (state.late) return 'late';
    return payment.requisites ? 'pay' : 'preparing';
  }
  if (state.phase === 'creating' || state.phase === 'resuming') return 'loading';
  return !method && methods.length > 1 ? 'choose' : 'start';
}
