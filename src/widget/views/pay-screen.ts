/**
 * The screen the shopper pays from. On a phone the way to pay on this phone comes first: the amount, then the
 * service's hosted payment page if it gave one, the UPI app chooser or the SBP bank chooser (and, when a tap opened nothing, a hint to try another app or device),
 * the countdown, the requisites, and the QR folded behind "Pay from another device". Elsewhere the QR comes
 * first, beside the requisites, with a caption for the phone camera. Without a QR a one-line instruction says
 * what to do with the requisites.
 */
import { html, nothing, type TemplateResult } from 'lit';
import type { PaymentView } from '../../shared/payment-view.js';
import { c2bLink } from '../deep-links.js';
import { qrSvg } from '../qr-code.js';
import { otherDevice } from './other-device.js';
import { amountBlock, copyButton, countdown, notices, otherMethod } from './parts.js';
import type { ViewContext } from './view-context.js';

export function payScreen(ctx: ViewContext, payment: PaymentView, title: TemplateResult): TemplateResult {
  const { t } = ctx;
  const qr = payment.qr ? qrSvg(payment.qr, t.qrLabel) : undefined;
  if (ctx.isPhone) {
    // The service's hosted payment page (an https link that is no C2B link) is a way to pay on this phone too.
    const page = /^https:\/\//i.test(payment.qr ?? '') && !c2bLink(payment) ? payment.qr : undefined;
    // The phone part draws the chooser; without it the requisites and the folded QR still pay.
    const phone = ctx.part('phone');
    const chooser = !phone ? nothing : payment.method === 'sbp' ? phone.bankChooser(ctx, payment) : phone.appChooser(ctx, payment);
    return html`${title} ${amountBlock(ctx, payment, true)}
      ${page ? html`<a part="open-app" class="button primary" href=${page} rel="noopener noreferrer">${t.openApp}</a>` : nothing} ${chooser}
      ${
        ctx.stuck
          ? html`<div part="notice" class="notice" role="status"><span>${t.didntOpen}</span>
            ${qr ? html`<button class="link" @click=${() => ctx.setOtherDevice(true)}>${t.otherDevice}</button>` : nothing}</div>`
          : nothing
      }
      ${countdown(ctx)} ${notices(ctx)} ${details(ctx, payment, chooser === nothing && !page)}
      ${qr ? otherDevice(ctx, payment.qr!, qr) : nothing} ${otherMethod(ctx)}`;
  }
  return html`${title} ${amountBlock(ctx, payment, true)}
    <div class="pay-body">
      ${
        qr
          ? html`<figure part="qr-frame" class="qr-frame">
            ${qr}
            <figcaption class="hint">${t.scanHint}</figcaption>
          </figure>`
          : nothing
      }
      ${details(ctx, payment, !qr)}
    </div>
    ${countdown(ctx)} ${notices(ctx)} ${otherMethod(ctx)}`;
}

/** The requisites with copy buttons, after the one-line instruction when nothing else says what to do. */
function details(ctx: ViewContext, payment: PaymentView, instruct: boolean): TemplateResult {
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
              ${copyButton(ctx, 'address', r.address, 'address-label')}</dd>
          </div>
          ${r.recipient ? html`<div part="requisite"><dt>${t.recipientLabel}</dt><dd><span class="value">${r.recipient}</span></dd></div>` : nothing}
          ${r.bank ? html`<div part="requisite"><dt>${t.bankLabel}</dt><dd><span class="value">${r.bank}</span></dd></div>` : nothing}
        </dl>`
        : nothing
    }
  </div>`;
}
