/**
 * Every screen but the pay screen: the start button or the method choice, the waits (creating, preparing the
 * requisites, checking), the four final screens and the error screen. Each starts with its heading, each wait
 * says what is happening, and each final screen says what the shopper can do next.
 */
import { html, nothing, type TemplateResult } from 'lit';
import { amountBlock, countdown, heading, money, notices, spinner } from './parts.js';
import { otherMethod, payScreen } from './pay-screen.js';
import type { ErrorKind } from '../translations/translation.js';
import type { Screen, ViewContext } from './view-context.js';

export function renderScreen(ctx: ViewContext, screen: Screen): TemplateResult {
  const { t, flow } = ctx;
  // screenOf shows preparing, pay, checking and the final screens only with a payment.
  const payment = flow.payment!;
  switch (screen) {
    case 'start':
      return html`${heading(t.title)}
        <button part="pay-button" class="button primary" type="button" @click=${() => ctx.start()}>${t.payButton}</button>`;
    case 'choose':
      return html`${heading(t.chooseMethod)}
        <div class="methods" role="group" aria-labelledby="heading">
          ${ctx.methods.map(
            (m) => html`<button part="method-button" class="button method" type="button" data-method=${m}
              @click=${() => ctx.start(m)}>${t.methods[m] ?? m.toUpperCase()}</button>`,
          )}
        </div>`;
    case 'loading':
      return html`${heading(t.preparing)} ${spinner()}`;
    case 'preparing':
      return html`${heading(t.preparing)} ${spinner()}
        ${amountBlock(ctx, payment, false)} ${countdown(ctx)} ${notices(ctx)}`;
    case 'pay':
      return payScreen(ctx, payment);
    case 'checking':
      return html`${heading(t.checkingHeading)} ${spinner()} <p class="hint">${t.checkingHint}</p>
        ${amountBlock(ctx, payment, false)} ${notices(ctx)}`;
    case 'paid':
      return html`<div part="result" class="result paid">
        <span part="result-icon" class="icon" aria-hidden="true">✓</span>
        ${heading(t.paidHeading)}
        <p part="paid-amount" class="paid-amount">${
          payment.initAmount
            ? t.paidDifferent(money(ctx, payment), money(ctx, payment, payment.initAmount))
            : t.paidAmount(money(ctx, payment))
        }</p>
        <slot name="success"></slot>
      </div>`;
    case 'underpaid':
      return html`<div part="result" class="result underpaid">
        <span part="result-icon" class="icon" aria-hidden="true">!</span>
        ${heading(t.underpaidHeading)}
        <p part="paid-amount" class="paid-amount">${t.underpaidAmount(money(ctx, payment), money(ctx, payment, payment.initAmount ?? payment.amount))}</p>
        <p class="hint">${t.underpaidHint}</p>
      </div>`;
    case 'expired':
    case 'failed':
      return html`<div part="result" class="result ${screen}">
        <span part="result-icon" class="icon" aria-hidden="true">${screen === 'expired' ? '!' : '✕'}</span>
        ${heading(screen === 'expired' ? t.expiredHeading : t.failedHeading)}
        <p class="hint">${screen === 'expired' ? t.expiredHint : t.failedHint}</p>
        <button part="restart-button" class="button primary" type="button" @click=${() => ctx.start()}>${t.startAgain}</button>
        ${otherMethod(ctx)}
      </div>`;
    case 'error':
      return errorScreen(ctx);
  }
}

export function errorKind(code: string): ErrorKind {
  if (code === 'network_error' || code === 'timeout') return 'network';
  if (code === 'order_paid') return 'paid';
  return code === 'misconfigured' || code === 'bad_request' || code === 'unknown_field' ? 'setup' : 'other';
}

function errorScreen(ctx: ViewContext): TemplateResult {
  const { t, flow } = ctx;
  const error = flow.error;
  const code = error?.code ?? 'internal';
  // Paid orders and a broken setup cannot be fixed by the shopper; everything else can be tried again.
  const action = code === 'order_paid' || code === 'misconfigured' ? undefined : error?.retryable ? t.retry : t.startAgain;
  return html`${heading(t.errorHeading)}
    <p part="error" class="error" data-code=${code}>${t.errors[errorKind(code)]}</p>
    ${action ? html`<button part="retry-button" class="button primary" type="button" @click=${ctx.retry}>${action}</button>` : nothing}`;
}
