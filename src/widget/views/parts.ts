/**
 * Pieces several screens share: the focusable heading every screen starts with (focus moves there when the
 * screen changes), the amount, the countdown, the notices about a failing connection or a stalled check, and
 * the way back to the method choice.
 * Every value from the service is rendered as text through Lit bindings, never as markup. The buttons of every
 * screen go without type="button": in the shadow tree they have no form owner, so nothing is submitted.
 */
import { html, nothing, type TemplateResult } from 'lit';
import type { PaymentView } from '../../shared/payment-view.js';
import { formatAmount, formatClock } from '../format.js';
import type { ViewContext } from './view-context.js';

export function heading(text: string): TemplateResult {
  return html`<h2 part="heading" id="heading" tabindex="-1">${text}</h2>`;
}

export function spinner(): TemplateResult {
  return html`<span part="spinner" class="spinner" aria-hidden="true"></span>`;
}

export function money(ctx: ViewContext, payment: PaymentView, amount = payment.amount): string {
  return formatAmount(amount, payment.currency, ctx.t.amountLocale ?? ctx.locale);
}

export function amountBlock(ctx: ViewContext, payment: PaymentView, copyable: boolean): TemplateResult {
  return html`<div part="amount" class="amount">
    <span class="label" id="amount-label">${ctx.t.amountLabel}</span>
    <span class="value">${
      // A currency written as its code ("RUB 450.00", English roubles) may break after it: Intl joins the two with a
      // no-break space, and where the line is too short (a phone's text at 200%) the break fell inside the number.
      money(ctx, payment).replace(/([A-Z]{3})\xa0/, '$1 ')
    }</span>
    ${copyable ? copyButton(ctx, 'amount', payment.amount) : nothing}
  </div>`;
}

/** The copy button of the value labelled by the element with id `<key>-label`. */
export function copyButton(ctx: ViewContext, key: string, text: string): TemplateResult {
  const done = ctx.copied === key;
  // Named by its own word and the value's label ("Copy UPI ID"): a screen reader's list of buttons would show "Copy" twice.
  // In the language's word order: the Indian languages and Urdu say the verb last ("UPI ID कॉपी करें").
  const ids = ctx.t.copyLast ? `${key}-label copy-${key}` : `copy-${key} ${key}-label`;
  return html`<button part="copy-button" class="copy ${done ? 'done' : ''}" id="copy-${key}"
    aria-labelledby=${ids} @click=${() => ctx.copy(key, text)}>${done ? ctx.t.copied : ctx.t.copy}</button>`;
}

export function countdown(ctx: ViewContext): TemplateResult | typeof nothing {
  const left = ctx.flow.countdown.remainingMs;
  // At zero the late screen takes over (nothing to pay now, still checking).
  if (!left) return nothing;
  const urgent = left <= 60_000;
  return html`<p part="countdown" class="countdown ${urgent ? 'urgent' : ''}">
    <span class="label">${ctx.t.timeLeft}</span> <span class="clock" role="timer">${formatClock(left)}</span>
  </p>`;
}

/** The connection notice and the stalled notice, with the button that checks again. */
export function notices(ctx: ViewContext): TemplateResult | typeof nothing {
  const { state, t } = ctx;
  if (!state.trouble && !state.stalled) return nothing;
  return html`<div part="notice" class="notice">
    <span>${state.stalled ? t.followStopped : t.connectionTrouble}</span>
    <button part="check-button" class="link" @click=${() => ctx.flow.refresh()}>${t.checkNow}</button>
  </div>`;
}

/** Back to the method choice, when the shopper has more than one. */
export function otherMethod(ctx: ViewContext): TemplateResult | typeof nothing {
  if (ctx.methods.length < 2) return nothing;
  return html`<button part="other-method-button" class="link" @click=${() => ctx.flow.reset()}>
    ${ctx.t.otherMethod}</button>`;
}
