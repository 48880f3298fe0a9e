/**
 * A QR code as one SVG <path>, drawn in a Lit template: no canvas, no innerHTML, nothing a strict Content
 * Security Policy refuses. The module matrix comes with the payment from the proxy (PaymentView.qrMatrix); without
 * it, from the qr-encoder part, which encodes in the browser (lean-qr); not at all when the proxy said no QR can
 * hold the text (a `null` matrix). The
 * drawing is ours. The symbol keeps the 4-module quiet zone the standard asks for, stays black on white in dark
 * mode (inverted codes defeat many readers) and is drawn at >= 4 CSS px per module, which phone cameras read easily.
 */
import { html, type TemplateResult } from 'lit';
import type { PaymentView } from '../shared/payment-view.js';
import type { QrMatrix } from '../shared/qr-modules.js';
import { unpackQrModules } from '../shared/qr-modules.js';
import type { QrEncoderPart } from './parts/part-types.js';

const QUIET_ZONE = 4;
const MIN_MODULE_PX = 4;
const MIN_SIZE_PX = 200;

/** One path for all dark modules, a unit square each (with shape-rendering crispEdges, no seams between them). */
export function qrPath(matrix: QrMatrix): string {
  let d = '';
  for (let row = 0; row < matrix.size; row++) {
    for (let col = 0; col < matrix.size; col++) if (matrix.isDark(row, col)) d += `M${col + QUIET_ZONE} ${row + QUIET_ZONE}h1v1h-1z`;
  }
  return d;
}

/** The payment's QR as drawn, and its matrix (the phone part makes the image to save or share from it). */
export interface DrawnQr {
  svg: TemplateResult;
  matrix: QrMatrix;
}

/** The last payment QR's matrix: the element draws again every second while the countdown runs. */
let last: { text: string; sent: string | undefined; matrix: QrMatrix | undefined } | undefined;

/**
 * The module matrix of the payment's `qr`: the one the proxy sent, else the qr-encoder part's (`encoder()` asks
 * for it: undefined while it loads, and the element draws again once it is there, or when it failed). Undefined
 * without a QR, or when none can be had: too long for a QR (as the proxy's `null` says without the part), or
 * neither the proxy's matrix nor the part.
 */
export function paymentQrMatrix(payment: PaymentView, encoder: () => QrEncoderPart | undefined): QrMatrix | undefined {
  const text = payment.qr;
  if (!text) return undefined;
  if (last?.text === text && last.sent === payment.qrMatrix?.dark) return last.matrix;
  let matrix = unpackQrModules(payment.qrMatrix);
  if (!matrix && payment.qrMatrix !== null) {
    const part = encoder();
    if (!part) return undefined;
    try {
      matrix = part.qrMatrix(text);
    } catch {
      // too long for any QR version: the requisites are still shown
    }
  }
  last = { text, sent: payment.qrMatrix?.dark, matrix };
  return matrix;
}

/**
 * The SVG of `matrix`. `label` is the text alternative; the details it refers to are rendered next to the code as
 * real text.
 */
export function qrSvg(matrix: QrMatrix, label: string): TemplateResult {
  const side = matrix.size + 2 * QUIET_ZONE;
  const px = Math.max(MIN_SIZE_PX, side * MIN_MODULE_PX);
  // Written inside the <svg> element, the rect and path are parsed as SVG: no svg`` fragment needed (Lit's rule).
  return html`<svg part="qr" class="qr" role="img" aria-label=${label} viewBox=${`0 0 ${side} ${side}`}
    width=${px} height=${px} shape-rendering="crispEdges"><rect width=${side} height=${side} fill="#fff"></rect>
    <path d=${qrPath(matrix)} fill="#000"></path></svg>`;
}
