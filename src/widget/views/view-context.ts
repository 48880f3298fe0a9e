/**
 * What the screen templates may read and do. Templates are plain functions of this context (no state, no
 * async work): the element builds it once per render from its controllers, so that every screen can be read,
 * and reviewed, on its own.
 */
import type { FlowState, PaymentFlowController } from '../controllers/payment-flow.js';
import type { SbpBank } from '../deep-links.js';
import type { Platform } from '../device.js';
import type { ChoiceKind } from '../remembered-choice.js';
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
  /** Paying on this device: the app or bank chooser comes first, the QR (unscannable here) folds away. */
  isPhone: boolean;
  /** Which links open an app here. */
  platform: Platform;
  /** The UPI apps to offer, in order (the remembered one first). */
  upiApps: string[];
  /** The SBP banks, ranked (the remembered one first), once loaded. */
  banks: SbpBank[] | undefined;
  bankQuery: string;
  filterBanks(query: string): void;
  /** Called in the tap on an app or bank link: remembers it and watches whether an app opened. */
  tapped(kind: ChoiceKind, id: string): void;
  /** The last tap seems not to have opened an app. */
  stuck: boolean;
  /** Whether "Pay from another device" is unfolded. */
  otherDevice: boolean;
  setOtherDevice(open: boolean): void;
  /** Key of the value just copied (its button says "Copied"), if any. */
  copied: string | undefined;
  copy(key: string, text: string): void;
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
