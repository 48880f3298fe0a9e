/**
 * The <payin-checkout> element's class, without side effects: payin-checkout.ts registers it. The class holds
 * the public surface (attributes, properties, methods) and turns controller state into a screen; the payment
 * flow, its following and its countdown live in controllers/, the screens in views/, and what only some payments
 * reach in on-demand parts (parts/), which the element loads when it first draws them.
 */
import { adoptStyles, type CSSResultOrNative, html, LitElement, type PropertyValues, supportsAdoptingStyleSheets } from 'lit';
import type { Clock } from '../shared/clock.js';
import type { PaymentView } from '../shared/payment-view.js';
import { copyText } from './clipboard.js';
import { MediaQueryController } from './controllers/media-query.js';
import { PageLanguageController } from './controllers/page-language.js';
import { type FlowState, PaymentFlowController } from './controllers/payment-flow.js';
import { pageClock } from './page-clock.js';
import { loadPart } from './parts/load-part.js';
import type { PartName, Parts } from './parts/part-types.js';
import { styles } from './payin-checkout.styles.js';
import { DEFAULT_UPI_APPS } from './phone/deep-links.js';
import type { PhoneLayout } from './phone/phone-layout.js';
import { overlay, type TextOverrides } from './translations/overlay.js';
import { type Localized, langOf, pickTranslation } from './translations/pick.js';
import { renderScreen } from './views/screens.js';
import { spoken } from './views/spoken.js';
import { type Screen, screenOf, type ViewContext } from './views/view-context.js';

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
 * @event payin-superseded - The shop re-priced the order: this payment is no longer offered (final for the page). `detail: {payment, resumed}`.
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
 * @csspart open-app - On a phone, the link that opens a hosted payment page ("Open in payment app").
 * @csspart app-chooser - On a phone, the UPI apps to pay with.
 * @csspart app-link - One UPI app (or "any UPI app"): a link that opens it at the payment.
 * @csspart bank-chooser - On a phone, the SBP banks to pay with.
 * @csspart bank-search - The field that filters the banks by name.
 * @csspart bank-link - One bank: a link that opens its app.
 * @csspart other-device - On a phone, the fold with the QR for paying from another device.
 * @csspart other-device-toggle - Its summary ("Pay from another device").
 * @csspart share-button - Shares the QR as an image (where the browser can share files).
 * @csspart save-link - Saves the QR as an image (elsewhere).
 * @csspart late-notice - After the expiry: do not pay again, the payment is still being checked.
 * @csspart countdown - The time left.
 * @csspart notice - The notice about a failing connection or an unconfirmed payment.
 * @csspart check-button - The button in the notice that checks again.
 * @csspart other-method-button - The button back to the method choice.
 * @csspart result - The final screen (paid, underpaid, superseded, expired or failed).
 * @csspart result-icon - The icon of the final screen.
 * @csspart paid-amount - The amount actually paid.
 * @csspart restart-button - The button that starts a new payment after expiry or failure.
 * @csspart error - The error message.
 * @csspart retry-button - The button that repeats what failed.
 *
 * @cssproperty --payin-font-family - Font of the whole element. Default: inherited.
 * @cssproperty --payin-font-size - Base font size. Default: max(1rem, 16px).
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

  static override properties = {
    endpoint: {},
    orderId: { attribute: 'order-id' },
    orderToken: { attribute: 'order-token' },
    method: {},
    methods: {},
    lang: {},
    texts: { type: Object },
    autostart: { type: Boolean },
    pollInterval: { type: Number, attribute: 'poll-interval' },
    platform: {},
    upiApps: { attribute: 'upi-apps', converter: (value: string | null) => value?.split(/[\s,]+/).filter(Boolean) ?? [] },
    noRemember: { type: Boolean, attribute: 'no-remember' },
  };

  /** Where the shop mounted the proxy. */
  endpoint = '/payin';

  /** The shop's order id; the proxy resolves its amount and currency. */
  orderId = '';

  /**
   * A signed order token the shop's page rendered (`{orderId, amount, currency, exp}` signed with a key shared
   * with the proxy): sent with the create request, for a proxy that prices from it (the standalone server).
   */
  orderToken = '';

  /** The payment method: `upi`, `sbp` or `c2c` (a transfer to a card number). */
  method = '';

  /** Space-separated methods to let the shopper choose from, e.g. `sbp upi`. */
  methods = '';

  /**
   * The language of the texts: `en`, `hi`, `bn`, `te`, `mr`, `ta`, `gu`, `kn`, `ml`, `pa`, `or`, `ur` (right to
   * left) or `ru`; by default the closest `lang` of the page.
   */
  override lang = '';

  /**
   * The shop's own texts instead of the translation's, by key (see the Translation type), e.g.
   * `{"payButton": "Pay now", "headings": {"paid": "Thank you!"}}`; in the element's language. Attribute: JSON.
   */
  texts: TextOverrides | undefined = undefined;

  /** Create the payment as soon as the element knows its order and method, without a pay button. */
  autostart = false;

  /** Milliseconds between status checks when the event stream is not available. */
  pollInterval = 3000;

  /**
   * `ios`, `android` or `desktop`: which links open a payment app here, and (unless `desktop`) the phone layout.
   * By default the user agent says which phone it is, and a narrow or low screen (a phone held upright or on its
   * side) with a coarse pointer gets the phone layout.
   */
  platform = '';

  /**
   * The UPI apps offered on a phone, in order: ids among `gpay phonepe paytm bhim amazonpay` (Amazon Pay on
   * Android only). Attribute: space-separated.
   */
  upiApps: string[] = DEFAULT_UPI_APPS;

  /** Do not remember the shopper's last UPI app and SBP bank on the device (localStorage). */
  noRemember = false;

  /** The clock the countdown, the status checks and the hints run on (tests pass a manual one). */
  clock: Clock = pageClock;

  /** Hands the controllers the element's clock, whichever it is when they ask (a test sets it after creating). */
  readonly #clock: Clock = {
    now: () => this.clock.now(),
    setTimeout: (callback, ms) => this.clock.setTimeout(callback, ms),
    clearTimeout: (handle) => this.clock.clearTimeout(handle),
  };

  readonly #flow = new PaymentFlowController(
    this,
    () => ({
      endpoint: this.endpoint || '/payin',
      orderId: this.orderId,
      orderToken: this.orderToken || undefined,
      method: this.method || (this.#methodList.length === 1 ? this.#methodList[0] : undefined),
      methods: this.#methodList,
      autostart: this.autostart,
      pollInterval: this.pollInterval > 0 ? this.pollInterval : 3000,
    }),
    this.#clock,
  );
  /**
   * A phone held either way: a coarse pointer on a narrow screen, or on a low one, as a phone is on its side (an
   * iPhone 15 in landscape is 844 CSS px wide and about 340 high; a tablet on its side is over 700 high).
   */
  readonly #touch = new MediaQueryController(this, '(pointer: coarse) and (max-width: 50rem), (pointer: coarse) and (max-height: 30rem)');
  // biome-ignore lint/correctness/noUnusedPrivateClassMembers: a controller acts through the host's lifecycle, never read
  readonly #pageLanguage = new PageLanguageController(this);
  /** The phone layout of the pay screen, once the phone part has loaded on a phone. */
  #phone: PhoneLayout | undefined;
  #copied: string | undefined;
  #copiedTimer: unknown;
  #shown: Screen | undefined;
  #focusWasInside = false;
  /** What the last render waited for (the texts of the element's language, a part): each settles once the render it allows is asked for. */
  #waiting: Promise<unknown>[] = [];
  /** The texts last rendered. */
  #said: Localized | undefined;
  /** The parts whose styles this element's shadow root has adopted. */
  readonly #styledParts = new Set<PartName>();
  /**
   * The flow's state when the element was taken off the page, while it is not torn down yet: disconnectedCallback's
   * microtask does that unless the element is put back first.
   */
  #leaving: FlowState | undefined;

  /** The payment shown, if any (read-only). */
  get payment(): PaymentView | undefined {
    return this.#flow.payment;
  }

  /** The screen shown: start, choose, loading, preparing, pay, checking, late, paid, underpaid, superseded, expired, failed or error. */
  get screen(): Screen {
    return screenOf(this.#flow.state, this.#methodList, this.method || undefined);
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

  override connectedCallback(): void {
    const left = this.#leaving;
    this.#leaving = undefined;
    // Put back before the teardown: nothing was torn down, so nothing starts again (its new ancestors' `lang` may differ).
    if (left === this.#flow.state) {
      this.requestUpdate();
      return;
    }
    // The flow learned something while the element was off the page (an answer taken in between the two steps of a
    // move), and what it skipped there, following the payment or announcing it, is done by setting up again.
    if (left) super.disconnectedCallback();
    super.connectedCallback();
  }

  /**
   * Torn down in a microtask, once the code that took it off has run, unless it is back by then: a move in the DOM
   * (a list that reorders, a layout that re-parents the element, a framework's insertBefore) takes it off and puts
   * it back at once, and a teardown at once would close its event stream and give up the lead, then open a new
   * stream with a status check, on every move.
   */
  override disconnectedCallback(): void {
    this.#leaving = this.#flow.state;
    queueMicrotask(() => {
      if (!this.#leaving) return;
      this.#leaving = undefined;
      super.disconnectedCallback();
    });
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
    // :focus-within looks into the shadow tree (it follows the flat tree).
    this.#focusWasInside = this.matches(':focus-within');
    // Fetched ahead, while the shopper is still on an earlier screen, so that the screen that needs a part rarely waits for it.
    if (this.#isPhone) {
      loadPart('phone');
      const method = this.payment?.method ?? this.method;
      if (method) loadPart(method === 'sbp' ? 'sbp-banks' : 'upi-apps');
    }
    if (this.payment) loadPart('results');
  }

  /** The phone layout: named by `platform`, else a narrow or low screen with a coarse pointer. */
  get #isPhone(): boolean {
    return this.platform ? this.platform !== 'desktop' : this.#touch.matches;
  }

  /** On a phone, the phone part's layout of the pay screen, made the first time it is there. */
  #phoneLayout(): PhoneLayout | undefined {
    if (!this.#isPhone) return undefined;
    const part = this.#part('phone');
    this.#phone ??=
      part &&
      new part.PhoneLayout(this, this.#clock, () => ({
        endpoint: this.endpoint || '/payin',
        platform: this.platform,
        upiApps: this.upiApps,
        remember: !this.noRemember,
        paymentId: this.payment?.id,
      }));
    return this.#phone;
  }

  /**
   * An on-demand part, with its styles adopted by this element's shadow root; undefined while it loads (this
   * element renders again once it has) or when it failed to.
   */
  #part<K extends PartName>(name: K): Parts[K] | undefined {
    const part = loadPart(name);
    // Not `instanceof Promise`, which fails on a page that replaced Promise (pick.ts says why).
    if (part && 'then' in part) {
      this.#waiting.push(part.then(() => this.requestUpdate()));
      return undefined;
    }
    if (part && 'styles' in part && !this.#styledParts.has(name)) {
      this.#styledParts.add(name);
      const root = this.renderRoot as ShadowRoot;
      // Adopting replaces the list, so the element's own sheets go first; without adoptedStyleSheets Lit appends <style> elements.
      const added: CSSResultOrNative[] = [part.styles()];
      adoptStyles(root, supportsAdoptingStyleSheets ? [...root.adoptedStyleSheets, ...added] : added);
    }
    return part ?? undefined;
  }

  protected override render() {
    this.#waiting = [];
    let picked = pickTranslation(this.lang || langOf(this));
    if ('then' in picked) {
      // Renders again once the texts are there (a repeated render while they load only asks once more).
      this.#waiting.push(picked.then(() => this.requestUpdate()));
      // A language switch keeps the screen (its QR, the shopper's focus) in the old texts until the new ones are in.
      if (!this.#said)
        return html`<div part="base" class="base" aria-busy="true"><slot name="header"></slot><slot name="footer"></slot></div>`;
      picked = this.#said;
    }
    this.#said = picked;
    const { locale } = picked;
    const t = overlay(picked.t, this.texts);
    const screen = this.screen;
    const ctx: ViewContext = {
      t,
      locale,
      flow: this.#flow,
      state: this.#flow.state,
      methods: this.#methodList,
      copied: this.#copied,
      copy: (key, text) => void this.#copy(key, text),
      part: (name) => this.#part(name),
      phoneLayout: () => this.#phoneLayout(),
    };
    // role="status" is a polite, atomic live region by itself (no aria-live or aria-atomic needed); Lit writes the
    // boolean aria-busy as "true" or "false".
    // The texts' direction, not the page's: an English checkout on an Urdu page stays left to right, and the reverse.
    return html`<div part="base" class="base" lang=${locale} dir=${t.dir ?? 'ltr'}>
      <slot name="header"></slot>
      <section part="screen" class="screen ${screen}" aria-labelledby="heading"
        aria-busy=${screen === 'loading' || screen === 'preparing'}>${renderScreen(ctx, screen)}</section>
      <div class="sr-only" role="status">${spoken(t, screen, this.#flow.state, this.#flow.countdown.announcedSeconds, !!this.#copied)}</div>
      <slot name="footer"></slot>
    </div>`;
  }

  protected override updated(): void {
    const screen = this.screen;
    // Follow the shopper: move focus only when it was in the element, to the heading of a new screen, or of the same
    // screen when the control that had it is gone (a clicked button vanished: "Check again" goes with its notice).
    if (this.#shown && this.#focusWasInside && (screen !== this.#shown || !this.matches(':focus-within'))) {
      this.renderRoot.querySelector<HTMLElement>('#heading')?.focus();
    }
    this.#shown = screen;
  }

  /**
   * `updateComplete` also waits for the texts of the element's language and the parts the screen draws (loaded or
   * failed), so the screen it settles on is the whole one.
   */
  protected override async getUpdateComplete(): Promise<boolean> {
    let complete = await super.getUpdateComplete();
    for (let i = 0; i < 4 && this.#waiting.length; i++) {
      await Promise.all(this.#waiting);
      complete = await super.getUpdateComplete();
    }
    return complete;
  }

  async #copy(key: string, text: string): Promise<void> {
    const ok = await copyText(text, this.renderRoot as ShadowRoot);
    if (!ok) {
      // Both ways refused (some in-app browsers and web views): the value beside the button is selected instead, for
      // the shopper to copy by hand, rather than the button doing nothing.
      const value = this.renderRoot.querySelector(`#copy-${key}`)?.previousElementSibling;
      if (value) getSelection()?.selectAllChildren(value);
      return;
    }
    this.#copied = key;
    this.clock.clearTimeout(this.#copiedTimer);
    this.#copiedTimer = this.clock.setTimeout(() => {
      this.#copied = undefined;
      this.requestUpdate();
    }, COPIED_MS);
    this.requestUpdate();
  }
}
