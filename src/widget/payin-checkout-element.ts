/**
 * The <payin-checkout> element's class, without side effects: payin-checkout.ts registers it. The class holds
 * the public surface (attributes, properties, methods) and turns controller state into a screen; the payment
 * flow, its following and its countdown live in controllers/, the screens in views/.
 */
import { html, LitElement, type PropertyValues } from 'lit';
import { property } from 'lit/decorators.js';
import type { PaymentView } from '../shared/payment-view.js';
import { copyText } from './clipboard.js';
import { MediaQueryController } from './controllers/media-query.js';
import { PaymentFlowController } from './controllers/payment-flow.js';
import { styles } from './payin-checkout.styles.js';
import { langOf, pickTranslation } from './translations/pick.js';
import { renderScreen } from './views/screens.js';
import { screenOf, type Screen, type ViewContext } from './views/view-context.js';

const COPIED_MS = 2_000;

/**
 * A QR and bank-transfer checkout: creates a payment through the shop's proxy, shows the amount, the requisites
 * and the QR with a countdown to the real expiry, follows the payment to its end and says how it ended.
 *
 * @summary Pay an order by UPI, SBP or bank transfer.
 *
 * @event payin-created - A payment was created, or found again after a reload (`resumed: true`). `detail: {payment, resumed}`.
 * @event payin-state - The payment's state changed (also its first known state). `detail: {payment, resumed}`.
 * @event payin-paid - The payment is paid; once per page and payment. `detail: {payment, resumed}`.
 * @event payin-underpaid - The payer paid less than the price (final); once per page and payment. `detail: {payment, resumed}`.
 * @event payin-expired - The payment expired unpaid; once per page and payment. `detail: {payment, resumed}`.
 * @event payin-failed - The payment failed or was canceled; once per page and payment. `detail: {payment, resumed}`.
 * @event payin-error - A request failed. `detail: {code, message, retryable}`.
 *
 * @slot header - Above every screen (a logo, the order summary).
 * @slot footer - Below every screen (terms, support contact).
 * @slot success - On the paid screen, under the amount (what happens next).
 *
 * @csspart base - The wrapper of everything.
 * @csspart screen - The current screen.
 * @csspart heading - The heading of the current screen (focus moves here when the screen changes).
 * @csspart pay-button - The button that starts the payment.
 * @csspart method-button - Each payment method to choose from.
 * @csspart spinner - The progress indicator of the waiting screens.
 * @csspart amount - The amount to pay.
 * @csspart requisites - The list of payment details.
 * @csspart requisite - One payment detail (label and value).
 * @csspart copy-button - A button that copies the amount or a payment detail.
 * @csspart instruction - The one-line instruction shown when there is no QR.
 * @csspart qr-frame - The QR with its caption.
 * @csspart qr - The QR code (an SVG).
 * @csspart open-app - On phones, the link that opens the payment app.
 * @csspart countdown - The time left.
 * @csspart notice - The notice about a failing connection or an unconfirmed payment.
 * @csspart check-button - The button in the notice that checks again.
 * @csspart other-method-button - The button back to the method choice.
 * @csspart result - The final screen (paid, expired or failed).
 * @csspart result-icon - The icon of the final screen.
 * @csspart paid-amount - The amount actually paid.
 * @csspart restart-button - The button that starts a new payment after expiry or failure.
 * @csspart error - The error message.
 * @csspart retry-button - The button that repeats what failed.
 *
 * @cssproperty --payin-font-family - Font of the whole element. Default: inherited.
 * @cssproperty --payin-font-size - Base font size. Default: 1rem.
 * @cssproperty --payin-color-text - Text color.
 * @cssproperty --payin-color-muted - Secondary text color.
 * @cssproperty --payin-color-background - Background of the element.
 * @cssproperty --payin-color-surface - Background of inner panels (amount, requisites).
 * @cssproperty --payin-color-border - Borders.
 * @cssproperty --payin-color-accent - Buttons and links.
 * @cssproperty --payin-color-on-accent - Text on accent-colored buttons.
 * @cssproperty --payin-color-success - The paid screen.
 * @cssproperty --payin-color-danger - Errors, failure and the last minute of the countdown.
 * @cssproperty --payin-radius - Corner radius.
 * @cssproperty --payin-spacing - The base unit of spacing.
 * @cssproperty --payin-max-width - Maximal width of the element.
 * @cssproperty --payin-focus-ring - Outline of the focused control.
 */
export class PayinCheckout extends LitElement {
  static override styles = styles;

  /** Where the shop mounted the proxy. */
  @property() endpoint = '/payin';

  /** The shop's order id; the proxy resolves its amount and currency. */
  @property({ attribute: 'order-id' }) orderId = '';

  /**
   * A signed order token the shop's page rendered (`{orderId, amount, currency, exp}` signed with a key shared
   * with the proxy): sent with the create request, for a proxy that prices from it (the standalone server).
   */
  @property({ attribute: 'order-token' }) orderToken = '';

  /** The payment method, e.g. `upi` or `sbp`. */
  @property() method = '';

  /** Space-separated methods to let the shopper choose from, e.g. `sbp upi`. */
  @property() methods = '';

  /** The language of the texts (`en`, `ru`, `hi`); by default the closest `lang` of the page. */
  @property() override lang = '';

  /** Create the payment as soon as the element knows its order and method, without a pay button. */
  @property({ type: Boolean }) autostart = false;

  /** Milliseconds between status checks when the event stream is not available. */
  @property({ type: Number, attribute: 'poll-interval' }) pollInterval = 3000;

  readonly #flow = new PaymentFlowController(this, () => ({
    endpoint: this.endpoint || '/payin',
    orderId: this.orderId,
    orderToken: this.orderToken || undefined,
    method: this.method || (this.#methodList.length === 1 ? this.#methodList[0] : undefined),
    methods: this.#methodList,
    autostart: this.autostart,
    pollInterval: this.pollInterval > 0 ? this.pollInterval : 3000,
  }));
  readonly #phone = new MediaQueryController(this, '(pointer: coarse), (max-width: 30rem)');
  #copied: string | undefined;
  #copiedTimer: ReturnType<typeof setTimeout> | undefined;
  #shown: Screen | undefined;
  #focusWasInside = false;

  /** The payment shown, if any (read-only). */
  get payment(): PaymentView | undefined {
    return this.#flow.payment;
  }

  /** The screen shown: start, choose, loading, preparing, pay, checking, paid, expired, failed or error. */
  get screen(): Screen {
    return screenOf(this.#flow, this.#methodList, this.method || undefined);
  }

  /** Creates the payment, or resumes the one this tab already has for the order and method. */
  start(method?: string): Promise<void> {
    return this.#flow.start(method);
  }

  /** Checks the payment's status now; after an error, repeats what failed (never a second payment). */
  refresh(): Promise<void> {
    return this.#flow.refresh();
  }

  /** Forgets the payment in this tab and shows the start again. */
  reset(): void {
    this.#flow.reset(true);
  }

  get #methodList(): string[] {
    return this.methods.split(/[\s,]+/).filter(Boolean);
  }

  protected override willUpdate(changed: PropertyValues<this>): void {
    if (
      !this.hasUpdated ||
      changed.has('orderId') ||
      changed.has('endpoint') ||
      changed.has('method') ||
      changed.has('methods') ||
      changed.has('autostart')
    ) {
      this.#flow.sync();
    }
    this.#focusWasInside = this.matches(':focus-within') || this.shadowRoot?.activeElement != null;
  }

  protected override render() {
    const { t, locale } = pickTranslation(this.lang || langOf(this));
    const screen = this.screen;
    const ctx: ViewContext = {
      t,
      locale,
      flow: this.#flow,
      methods: this.#methodList,
      isPhone: this.#phone.matches,
      copied: this.#copied,
      copy: (key, text) => void this.#copy(key, text),
      start: (method) => void this.#flow.start(method),
      restart: () => this.#flow.reset(true),
      retry: () => void this.#flow.retry(),
      refresh: () => void this.#flow.refresh(),
    };
    const left = this.#flow.countdown.announcedSeconds;
    const spoken = this.#copied
      ? t.copied
      : screen === 'paid' || screen === 'underpaid' || screen === 'expired' || screen === 'failed'
        ? t[`${screen}Heading`]
        : left !== undefined && screen === 'pay'
          ? left >= 60
            ? t.minutesLeft(left / 60)
            : t.secondsLeft(left)
          : '';
    return html`<div part="base" class="base" lang=${locale}>
      <slot name="header"></slot>
      <section part="screen" class="screen ${screen}" aria-labelledby="heading"
        aria-busy=${screen === 'loading' || screen === 'preparing' ? 'true' : 'false'}>${renderScreen(ctx, screen)}</section>
      <div class="sr-only" role="status" aria-live="polite" aria-atomic="true">${spoken}</div>
      <slot name="footer"></slot>
    </div>`;
  }

  protected override updated(): void {
    const screen = this.screen;
    if (screen !== this.#shown) {
      const first = this.#shown === undefined;
      this.#shown = screen;
      // Follow the shopper: move focus only when it was in the element (a clicked button just vanished).
      if (!first && this.#focusWasInside) this.renderRoot.querySelector<HTMLElement>('#heading')?.focus();
    }
  }

  async #copy(key: string, text: string): Promise<void> {
    const ok = await copyText(text, this.renderRoot as ShadowRoot);
    if (!ok) return;
    this.#copied = key;
    clearTimeout(this.#copiedTimer);
    this.#copiedTimer = setTimeout(() => {
      this.#copied = undefined;
      this.requestUpdate();
    }, COPIED_MS);
    this.requestUpdate();
  }
}
