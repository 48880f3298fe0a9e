/**
 * The requisites with their copy buttons, after a one-line instruction when nothing else on the screen says what
 * to do with them (no QR, no app to open). Every layout of the pay screen shows them.
 */
import { html, nothing, type TemplateResult } from 'lit';
import type { PaymentView } from '../../shared/payment-view.js';
import { copyButton } from './parts.js';
import type { ViewContext } from './view-context.js';

export function requisites(ctx: ViewContext, payment: PaymentView, instruct: boolean): TemplateResult {
  const { t } = ctx;
  const r = payment.requisites;
  return html`<div class="details">
    ${instruct ? html`<p part="instruction">${payment.method === 'sbp' ? t.sbpInstruction(r?.bank) : t.instruction}</p>` : nothing}
    ${
      r
        ? html`<dl part="requisites" class="requisites">
          <div part="requisite">
            <dt id="address-label">${t.address[payment.method] ?? t.address.other}</dt>
            <dd><span class="value mono">${r.address}</span>
              ${copyButton(ctx, 'address', r.address)}</dd>
          </div>
          ${r.recipient ? html`<div part="requisite"><dt>${t.recipientLabel}</dt><dd><span class="value">${r.recipient}</span></dd></div>` : nothing}
          ${r.bank ? html`<div part="requisite"><dt>${t.bankLabel}</dt><dd><span class="value">${r.bank}</span></dd></div>` : nothing}
        </dl>`
        : nothing
    }
  </div>`;
}
