/**
 * The results part: the five final screens with their icon, the amount actually paid and what the shopper can do
 * next. Loaded while a payment is pending, so it is there when the payment ends; without it the core says the
 * same in fewer words (views/screens.ts: the heading, the hint, a new payment after an expiry or a failure).
 */
import { css, html, type TemplateResult } from 'lit';
import { isPaidState } from '../../shared/outcome.js';
import { money, otherMethod } from '../views/parts.js';
import type { ViewContext } from '../views/view-context.js';
import type { FinalScreen } from './part-types.js';

/** The English of this part's screens (en.script.ts). */
export { enResults as en } from '../translations/en-parts.js';

export function resultScreen(ctx: ViewContext, screen: FinalScreen, title: TemplateResult): TemplateResult {
  const { t } = ctx;
  // Final screens are shown with a payment; paid also without one, for an order the proxy says is paid already
  // (by another payment, perhaps, while this one is still open: then nothing is said of this one's amount).
  const payment = ctx.state.payment;
  if (!payment || ctx.state.error?.code === 'order_paid')
    return html`${title}<p class="hint">${t.errors.paid}</p><slot name="success"></slot>`;
  switch (screen) {
    case 'paid': {
      const paid = payment.initAmount
        ? t.paidDifferent(money(ctx, payment), money(ctx, payment, payment.initAmount))
        : t.paidAmount(money(ctx, payment));
      return resultBox(screen, '✓', title, html`<p part="paid-amount">${paid}</p><slot name="success"></slot>`);
    }
    case 'underpaid': {
      const received = t.underpaidAmount(money(ctx, payment), money(ctx, payment, payment.initAmount ?? payment.amount));
      return resultBox(screen, '!', title, html`<p part="paid-amount">${received}</p><p class="hint">${t.hints[screen]}</p>`);
    }
    case 'superseded':
      // Paid anyway, at the price the order had before: the shop settles it, and nothing here may invite a second
      // payment (the core's plain screen says the same).
      if (isPaidState(payment.state)) return resultBox(screen, '!', title, html`<p class="hint">${t.hints.failed}</p>`);
      return payAgain(ctx, screen, title);
    case 'expired':
    case 'failed':
      return payAgain(ctx, screen, title);
  }
}

/** Nothing was paid: what happened, and a new payment (or another method). */
function payAgain(ctx: ViewContext, screen: 'superseded' | 'expired' | 'failed', title: TemplateResult): TemplateResult {
  const { t } = ctx;
  return resultBox(
    screen,
    screen === 'failed' ? '✕' : '!',
    title,
    html`<p class="hint">${t.hints[screen]}</p>
      <button part="restart-button" class="button primary" @click=${() => ctx.flow.start()}>${t.startAgain}</button>
      ${otherMethod(ctx)}`,
  );
}

/** Every final screen's frame: its icon, its heading, then what it says. */
function resultBox(screen: FinalScreen, icon: string, title: TemplateResult, body: TemplateResult): TemplateResult {
  return html`<div part="result" class="result ${screen}">
    <span part="result-icon" class="icon" aria-hidden="true">${icon}</span>
    ${title}${body}
  </div>`;
}

// A function, not a constant: in the script-tag build `css` is the core's, handed over after this module runs.
export const styles = () => css`
  .result { display: flex; flex-direction: column; gap: var(--payin-spacing); align-items: center; text-align: center }
  .icon { width: 2em; height: 2em; line-height: 2em; border-radius: 50%; font-size: 1.5em; color: var(--payin-color-on-accent); background: var(--payin-color-muted) }
  .paid .icon { background: var(--payin-color-success) }
  .failed .icon, .underpaid .icon, .superseded .icon { background: var(--payin-color-danger) }
`;
