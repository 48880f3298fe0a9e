/**
 * Every screen but the pay screen: the start button or the method choice, the waits (creating, preparing the
 * requisites, checking, and after the expiry the grace window, which warns against paying twice), the five final
 * screens (drawn by the results part once it is there) and the error screen. Each starts with its heading, each
 * wait says what is happening, and each final
 * screen says what the shopper can do next.
 */
import { html, nothing, type TemplateResult } from 'lit';
import { isPaidState } from '../../shared/outcome.js';
import { errorActionLabel, errorText } from '../error-meaning.js';
import type { FinalScreen } from '../parts/part-types.js';
import { amountBlock, countdown, heading, notices, otherMethod, spinner } from './parts.js';
import { payScreen } from './pay-screen.js';
import type { Screen, ViewContext } from './view-context.js';

export function renderScreen(ctx: ViewContext, screen: Screen): TemplateResult {
  const { t } = ctx;
  // screenOf shows preparing, pay, checking and the final screens only with a payment; paid also without one,
  // for an order the proxy says is paid already (`order_paid`).
  const payment = ctx.state.payment!;
  const title = heading(t.headings[screen]);
  switch (screen) {
    case 'start':
      return html`${title}
        <button part="pay-button" class="button primary" @click=${() => ctx.flow.start()}>${t.payButton}</button>`;
    case 'choose':
      return html`${title}
        <div class="methods" role="group" aria-labelledby="heading">
          ${ctx.methods.map(
            (m) => html`<button part="method-button" class="button"
              @click=${() => ctx.flow.start(m)}>${t.methods[m] ?? m.toUpperCase()}</button>`,
          )}
        </div>`;
    case 'loading':
      return html`${title} ${spinner()}`;
    case 'preparing':
      return html`${title} ${spinner()}
        ${amountBlock(ctx, payment, false)} ${countdown(ctx)} ${notices(ctx)}`;
    case 'pay':
      return payScreen(ctx, payment, title);
    case 'checking':
      return html`${title} ${spinner()} <p class="hint">${t.hints[screen]}</p>
        ${amountBlock(ctx, payment, false)} ${notices(ctx)}`;
    case 'late':
      return html`${title} ${spinner()} <p part="late-notice" class="hint">${t.hints[screen]}</p>
        ${amountBlock(ctx, payment, false)} ${notices(ctx)}`;
    case 'paid':
    case 'underpaid':
    case 'superseded':
    case 'expired':
    case 'failed':
      return ctx.part('results')?.resultScreen(ctx, screen, title) ?? plainResult(ctx, screen, title);
    case 'error':
      return errorScreen(ctx, title);
  }
}

/** A final screen while the results part loads, or when it could not: what happened and what to do next. */
function plainResult(ctx: ViewContext, screen: FinalScreen, title: TemplateResult): TemplateResult {
  const { t } = ctx;
  if (screen === 'paid') {
    // Without a payment: a new tab or a return from the bank app asked to pay an order that is paid already.
    const paidAlready = ctx.state.payment ? nothing : html`<p class="hint">${t.errors.paid}</p>`;
    return html`${title}${paidAlready}<slot name="success"></slot>`;
  }
  // Money received (underpaid, or a re-priced order's payment paid anyway): the shop settles it; nothing here may
  // invite a second payment. The results part says what was received.
  if (isPaidState(ctx.state.payment!.state))
    return html`${title} <p class="hint">${screen === 'underpaid' ? t.hints.underpaid : t.hints.failed}</p>`;
  return html`${title} <p class="hint">${t.hints[screen]}</p>
    <button part="restart-button" class="button primary" @click=${() => ctx.flow.start()}>${t.startAgain}</button>
    ${otherMethod(ctx)}`;
}

function errorScreen(ctx: ViewContext, title: TemplateResult): TemplateResult {
  const { t } = ctx;
  const error = ctx.state.error;
  const action = errorActionLabel(error, t);
  return html`${title}
    <p part="error" class="error">${errorText(error, t)}</p>
    ${action ? html`<button part="retry-button" class="button primary" @click=${() => ctx.flow.retry()}>${action}</button>` : nothing}`;
}
