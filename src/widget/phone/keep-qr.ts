/**
 * Under the unfolded "Pay from another device" on a phone, a way to keep the QR for the "scan from the gallery"
 * habit: the Web Share API with the QR as a PNG file where the browser can share files, else a download link.
 * The file goes alone: a share target (a chat) sends a title as a message beside it, and no text here would mean
 * anything there. The image is drawn only once the shopper unfolds the QR.
 */
import { html, nothing, type TemplateResult } from 'lit';
import type { QrMatrix } from '../../shared/qr-modules.js';
import type { ViewContext } from '../views/view-context.js';
import { qrPng } from './qr-png.js';

const FILE_NAME = 'payment-qr.png';

export function keepQr(ctx: ViewContext, matrix: QrMatrix): TemplateResult | typeof nothing {
  const png = qrPng(matrix, FILE_NAME);
  if (!png) return nothing;
  const { url, file } = png;
  if (navigator.canShare?.({ files: [file] })) {
    return html`<button part="share-button" class="button"
      @click=${() => navigator.share({ files: [file] }).catch(() => undefined)}>${ctx.t.shareQr}</button>`;
  }
  return html`<a part="save-link" class="button" href=${url} download=${FILE_NAME}>${ctx.t.saveQr}</a>`;
}
