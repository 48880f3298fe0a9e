/**
 * What each on-demand part of the element offers. The core draws the first screens of a payment (the flow, the
 * amount, the requisites, the QR); a part adds what only some payments reach, and loads the first time one does
 * (load-part.ts). Until a part is there, or when it cannot load, the core draws without it: the QR and the
 * requisites never depend on a part.
 */
import type { CSSResult, nothing, TemplateResult } from 'lit';
import type { PaymentView } from '../../shared/payment-view.js';
import type { Screen, ViewContext } from '../views/view-context.js';

/** On a phone: the UPI app chooser and the SBP bank chooser (payin-checkout.phone.part.js). */
export interface PhonePart {
  appChooser(ctx: ViewContext, payment: PaymentView): TemplateResult | typeof nothing;
  bankChooser(ctx: ViewContext, payment: PaymentView): TemplateResult | typeof nothing;
  styles(): CSSResult;
}

/** Under the folded QR on a phone: save or share the QR as an image (payin-checkout.qr-image.part.js). */
export interface QrImagePart {
  keepQr(ctx: ViewContext, text: string): TemplateResult | typeof nothing;
}

/** The final screens' icon, amounts and next steps (payin-checkout.results.part.js). */
export interface ResultsPart {
  resultScreen(ctx: ViewContext, screen: FinalScreen, title: TemplateResult): TemplateResult;
  styles(): CSSResult;
}

export type FinalScreen = Extract<Screen, 'paid' | 'underpaid' | 'expired' | 'failed'>;

export interface Parts {
  phone: PhonePart;
  'qr-image': QrImagePart;
  results: ResultsPart;
}

export type PartName = keyof Parts;

/** The loaders, by name: dynamic imports in the ES module build, files beside the script in the script-tag build. */
export type PartLoaders = { readonly [K in PartName]: () => Promise<Parts[K]> };
