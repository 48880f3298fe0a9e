/**
 * "Pay from another device" on a phone: the QR folded away (the phone that shows it cannot scan it), with a
 * caption for this case and a way to keep the image for the "scan from the gallery" habit: the Web Share API with
 * the QR as a PNG file where the browser can share files, else a download link. `<details>` gives the fold its
 * keyboard and screen-reader behaviour for free.
 */
import { html, nothing, type TemplateResult } from 'lit';
import { qrPng } from '../qr-png.js';
import type { ViewContext } from './view-context.js';

const FILE_NAME = 'payment-qr.png';

export function otherDevice(ctx: ViewContext, text: string, qr: TemplateResult): TemplateResult {
  const { t } = ctx;
  return html`<details part="other-device" class="other" ?open=${ctx.otherDevice}
    @toggle=${(e: Event) => ctx.setOtherDevice((e.target as HTMLDetailsElement).open)}>
    <summary part="other-device-toggle">${t.otherDevice}</summary>
    <figure part="qr-frame" class="qr-frame">${qr}<figcaption class="hint">${t.otherDeviceHint}</figcaption></figure>
    ${ctx.otherDevice ? keep(ctx, text) : nothing}
  </details>`;
}

function keep(ctx: ViewContext, text: string): TemplateResult | typeof nothing {
  const png = qrPng(text, FILE_NAME);
  if (!png) return nothing;
  const { url, file } = png;
  if (navigator.canShare?.({ files: [file] })) {
    return html`<button part="share-button" class="button"
      @click=${() => navigator.share({ files: [file], title: ctx.t.qrLabel }).catch(() => undefined)}>${ctx.t.shareQr}</button>`;
  }
  return html`<a part="save-link" class="button" href=${url} download=${FILE_NAME}>${ctx.t.saveQr}</a>`;
}
