/**
 * The screen the shopper pays from: amount, requisites with copy buttons, the QR (or, without one, a one-line
 * instruction), the countdown and, on a phone, a button that opens the payment app. The app link is offered only
 * for upi:// and https:// texts, so that nothing the service sends can become a javascript: or other link.
 */
import { html, nothing, type TemplateResult } from 'lit';
import type { PaymentView } from '../../shared/payment-view.js';
import { qrSvg } from '../qr-code.js';
import { amountBlock, copyButton, countdown, heading, notices } from './parts.js';
import type { ViewContext } from './view-context.js';

const APP_LINK = /^(upi:\/\/|https:\/\/)/i;

export function payScreen(ctx: ViewContext, payment: PaymentView): TemplateResult {
  const { t } = ctx;
  const r = payment.requisites;
  const qr = payment.qr ? qrSvg(payment.qr, t.qrLabel) : undefined;
  return html`${heading(t.payHeading)} ${amountBlock(ctx, payment, true)}
    <div class="pay-body">
      ${
        qr
          ? html`<figure part="qr-frame" class="qr-frame">
            ${qr}
            <figcaption class="hint">${t.scanHint}</figcaption>
          </figure>`
          : nothing
      }
      <div class="details">
        ${qr ? nothing : html`<p part="instruction" class="instruction">${payment.method === 'sbp' ? t.sbpInstruction(r?.bank) : t.instruction}</p>`}
        ${
          r
            ? html`<dl part="requisites" class="requisites">
              <div part="requisite" class="requisite">
                <dt id="address-label">${t.address[payment.method] ?? t.address.other}</dt>
                <dd><span class="value mono">${r.address}</span>
                  ${copyButton(ctx, 'address', r.address, 'address-label')}</dd>
              </div>
              ${
                r.recipient
                  ? html`<div part="requisite" class="requisite">
                    <dt>${t.recipientLabel}</dt><dd><span class="value">${r.recipient}</span></dd>
                  </div>`
                  : nothing
              }
              ${
                r.bank
                  ? html`<div part="requisite" class="requisite">
                    <dt>${t.bankLabel}</dt><dd><span class="value">${r.bank}</span></dd>
                  </div>`
                  : nothing
              }
            </dl>`
            : nothing
        }
        ${
          ctx.isPhone && payment.qr && APP_LINK.test(payment.qr)
            ? html`<a part="open-app" class="button primary" href=${payment.qr} rel="noopener noreferrer">
              ${t.openApp}</a>`
            : nothing
        }
      </div>
    </div>
    ${countdown(ctx)} ${notices(ctx)} ${otherMethod(ctx)}`;
}

export function otherMethod(ctx: ViewContext): TemplateResult | typeof nothing {
  if (ctx.methods.length < 2) return nothing;
  return html`<button part="other-method-button" class="link" type="button" @click=${ctx.restart}>
    ${ctx.t.otherMethod}</button>`;
}
