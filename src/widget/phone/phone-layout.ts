/**
 * The pay screen on a phone, where the way to pay on this phone comes first: the amount, then the service's
 * hosted payment page if it gave one, the UPI app chooser or the SBP bank chooser (and, when a tap opened
 * nothing, a hint to try another app or device), the countdown, the requisites, and the QR folded behind "Pay
 * from another device". The choosers are parts of their own (a payment needs one of them): until one is there,
 * the requisites carry the payment. A controller of the element, created once the phone part has loaded, that
 * keeps what only this layout needs: the "did the app open?" watch, the SBP bank list, the bank search and the
 * fold, all forgotten when a new payment is shown.
 */
import { html, nothing, type ReactiveController, type ReactiveControllerHost, type TemplateResult } from 'lit';
import type { Clock } from '../../shared/clock.js';
import type { PaymentView } from '../../shared/payment-view.js';
import type { SbpBankList } from '../parts/part-types.js';
import type { DrawnQr } from '../qr-code.js';
import { amountBlock, countdown, notices, otherMethod } from '../views/parts.js';
import { requisites } from '../views/requisites.js';
import type { ViewContext } from '../views/view-context.js';
import { c2bLink, type SbpBank } from './deep-links.js';
import { type Platform, platformOf } from './device.js';
import { HandoffController } from './handoff.js';
import { otherDevice } from './other-device.js';
import { type ChoiceKind, recallChoice, rememberChoice } from './remembered-choice.js';

/** What the layout reads from the element, whenever it draws. */
export interface PhoneOptions {
  endpoint: string;
  /** The element's `platform` attribute. */
  platform: string;
  /** The UPI apps the shop offers, in order (empty: the default ones). */
  upiApps: string[];
  /** Whether the shopper's last app and bank are kept on the device. */
  remember: boolean;
  /** The id of the payment shown. */
  paymentId: string | undefined;
}

/** What the phone's views read and do, beyond what every screen has. */
export interface PhoneContext extends ViewContext {
  /** Which links open an app here. */
  platform: Platform;
  upiApps: string[];
  /** The shopper's last app or bank on this device (offered first), unless the shop turned remembering off. */
  recall(kind: ChoiceKind): string | undefined;
  /** The SBP banks as the proxy ordered them, once loaded. */
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
}

/** What the element asks of the phone layout: its pay screen. */
export interface PhoneScreen {
  payScreen(view: ViewContext, payment: PaymentView, title: TemplateResult, qr: DrawnQr | undefined): TemplateResult;
}

export class PhoneLayout implements ReactiveController, PhoneScreen {
  readonly #host: ReactiveControllerHost;
  readonly #options: () => PhoneOptions;
  readonly #handoff: HandoffController;
  /** The SBP bank list, once the SBP banks part has loaded for an SBP payment. */
  #banks: SbpBankList | undefined;
  #bankQuery = '';
  #otherDevice = false;
  #shownPayment: string | undefined;

  constructor(host: ReactiveControllerHost, clock: Clock, options: () => PhoneOptions) {
    this.#host = host;
    this.#options = options;
    this.#handoff = new HandoffController(host, clock);
    this.#shownPayment = options().paymentId;
    host.addController(this);
  }

  hostUpdate(): void {
    const { paymentId } = this.#options();
    if (paymentId !== this.#shownPayment) {
      // A new payment starts with the chooser as it was designed, not with the last one's search or hint.
      this.#shownPayment = paymentId;
      this.#bankQuery = '';
      this.#otherDevice = false;
      this.#handoff.reset();
    }
  }

  payScreen(view: ViewContext, payment: PaymentView, title: TemplateResult, qr: DrawnQr | undefined): TemplateResult {
    const options = this.#options();
    const ctx: PhoneContext = {
      ...view,
      platform: platformOf(options.platform),
      upiApps: options.upiApps,
      recall: (kind) => (options.remember ? recallChoice(kind) : undefined),
      banks: payment.method === 'sbp' ? this.#bankList(view, options.endpoint) : undefined,
      bankQuery: this.#bankQuery,
      filterBanks: (query) => this.#change(() => (this.#bankQuery = query)),
      tapped: (kind, id) => {
        if (options.remember && id !== 'any') rememberChoice(kind, id);
        this.#handoff.tapped();
      },
      stuck: this.#handoff.stuck,
      otherDevice: this.#otherDevice,
      setOtherDevice: (open) => this.#change(() => (this.#otherDevice = open)),
    };
    return phonePayScreen(ctx, payment, title, qr);
  }

  /** The SBP bank list of `endpoint`, once the SBP banks part is there to load it. */
  #bankList(view: ViewContext, endpoint: string): SbpBank[] | undefined {
    const part = view.part('sbp-banks');
    if (!part) return undefined;
    this.#banks ??= new part.SbpBankListController(this.#host);
    this.#banks.want(endpoint);
    return this.#banks.banks;
  }

  #change(change: () => unknown): void {
    change();
    this.#host.requestUpdate();
  }
}

/** The phone's pay screen for `ctx`: a plain function of it, as every screen is. */
export function phonePayScreen(ctx: PhoneContext, payment: PaymentView, title: TemplateResult, qr: DrawnQr | undefined): TemplateResult {
  const { t } = ctx;
  // The service's hosted payment page (an https link that is no C2B link) is a way to pay on this phone too.
  const c2b = c2bLink(payment);
  const page = /^https:\/\//i.test(payment.qr ?? '') && !c2b ? payment.qr : undefined;
  // The app or bank chooser, from its own part (without it, the requisites and the QR are the way to pay).
  const chooser =
    (payment.method === 'sbp'
      ? ctx.part('sbp-banks')?.bankChooser(ctx, payment, c2b, ctx.banks)
      : ctx.part('upi-apps')?.appChooser(ctx, payment)) ?? nothing;
  return html`${title} ${amountBlock(ctx, payment, true)}
    ${page ? html`<a part="open-app" class="button primary" href=${page} rel="noopener noreferrer">${t.openApp}</a>` : nothing} ${chooser}
    ${
      ctx.stuck
        ? html`<div part="notice" class="notice" role="status"><span>${t.didntOpen}</span>
          ${qr ? html`<button class="link" @click=${() => ctx.setOtherDevice(true)}>${t.otherDevice}</button>` : nothing}</div>`
        : nothing
    }
    ${countdown(ctx)} ${notices(ctx)} ${requisites(ctx, payment, chooser === nothing && !page)}
    ${qr ? otherDevice(ctx, qr) : nothing} ${otherMethod(ctx)}`;
}
