/**
 * The screen the shopper pays from: the QR first, beside the requisites, with a caption for the phone camera,
 * then the countdown. Without a QR a one-line instruction says what to do with the requisites. On a phone the
 * phone part draws its own layout (parts/phone-layout.ts: the way to pay on this phone first, the QR folded
 * away); until it is there, or when it cannot load, a phone gets this one, which pays as well.
 */
import { html, nothing, type TemplateResult } from 'lit';
import type { PaymentView } from '../../shared/payment-view.js';
import { type DrawnQr, paymentQrMatrix, qrSvg } from '../qr-code.js';
import { amountBlock, countdown, notices, otherMethod } from './parts.js';
import { requisites } from './requisites.js';
import type { ViewContext } from './view-context.js';

export function payScreen(ctx: ViewContext, payment: PaymentView, title: TemplateResult): TemplateResult {
  const { t } = ctx;
  const matrix = paymentQrMatrix(payment, () => ctx.part('qr-encoder'));
  const qr: DrawnQr | undefined = matrix && { svg: qrSvg(matrix, t.qrLabel), matrix };
  const phone = ctx.phoneLayout();
  if (phone) return phone.payScreen(ctx, payment, title, qr);
  return html`${title} ${amountBlock(ctx, payment, true)}
    <div class="pay-body">
      ${
        qr
          ? html`<figure part="qr-frame" class="qr-frame">
            ${qr.svg}
            <figcaption class="hint">${t.scanHint}</figcaption>
          </figure>`
          : nothing
      }
      ${requisites(ctx, payment, !qr)}
    </div>
    ${countdown(ctx)} ${notices(ctx)} ${otherMethod(ctx)}`;
}
