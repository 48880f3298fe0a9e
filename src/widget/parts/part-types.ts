/**
 * What each on-demand part of the element offers. The core draws the first screens of a payment (the flow, the
 * amount, the requisites, the QR); a part adds what only some payments reach, and loads the first time one does
 * (load-part.ts). Until a part is there, or when it cannot load, the core draws without it: the QR and the
 * requisites never depend on a part.
 */
import type { CSSResult, nothing, ReactiveControllerHost, TemplateResult } from 'lit';
import type { PaymentView } from '../../shared/payment-view.js';
import type { QrMatrix } from '../../shared/qr-modules.js';
import type { SbpBank } from '../phone/deep-links.js';
import type { PhoneContext, PhoneLayout } from '../phone/phone-layout.js';
import type { PhoneTexts, ResultsTexts, SbpBanksTexts, UpiAppsTexts } from '../translations/translation.js';
import type { Screen, ViewContext } from '../views/view-context.js';

/** On a phone: the pay screen's phone layout, the QR folded away with a way to save or share it (payin-checkout.phone.part.js). */
export interface PhonePart {
  PhoneLayout: typeof PhoneLayout;
  styles(): CSSResult;
  /** The English of its screens, which the script-tag core does not carry (translations/en.script.ts). */
  en: PhoneTexts;
}

/** On a phone, for a UPI payment: the app chooser (payin-checkout.upi-apps.part.js). */
export interface UpiAppsPart {
  appChooser(ctx: PhoneContext, payment: PaymentView): TemplateResult | typeof nothing;
  styles(): CSSResult;
  en: UpiAppsTexts;
}

/** The NSPK bank list of one endpoint, loaded on demand; the host draws again once it is there. */
export interface SbpBankList {
  readonly banks: SbpBank[] | undefined;
  want(endpoint: string): void;
}

/** On a phone, for an SBP payment: the bank list and its searchable chooser (payin-checkout.sbp-banks.part.js). */
export interface SbpBanksPart {
  SbpBankListController: new (host: ReactiveControllerHost) => SbpBankList;
  bankChooser(
    ctx: PhoneContext,
    payment: PaymentView,
    c2b: string | undefined,
    banks: SbpBank[] | undefined,
  ): TemplateResult | typeof nothing;
  styles(): CSSResult;
  en: SbpBanksTexts;
}

/** The final screens' icon, amounts and next steps (payin-checkout.results.part.js). */
export interface ResultsPart {
  resultScreen(ctx: ViewContext, screen: FinalScreen, title: TemplateResult): TemplateResult;
  styles(): CSSResult;
  en: ResultsTexts;
}

/**
 * The QR encoder, for a payment whose matrix did not come with it (a proxy that does not send it, or a garbled
 * one): only then is it loaded (payin-checkout.qr-encoder.part.js). A fallback, never part of a payment's journey.
 */
export interface QrEncoderPart {
  qrMatrix(text: string): QrMatrix;
}

export type FinalScreen = Extract<Screen, 'paid' | 'underpaid' | 'superseded' | 'expired' | 'failed'>;

export interface Parts {
  phone: PhonePart;
  'upi-apps': UpiAppsPart;
  'sbp-banks': SbpBanksPart;
  results: ResultsPart;
  'qr-encoder': QrEncoderPart;
}

export type PartName = keyof Parts;

/** The loaders, by name: dynamic imports in the ES module build, files beside the script in the script-tag build. */
export type PartLoaders = { readonly [K in PartName]: () => Promise<Parts[K]> };
