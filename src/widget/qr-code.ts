/**
 * A QR code as one SVG <path>, drawn in a Lit template: no canvas, no innerHTML, nothing a strict Content
 * Security Policy refuses. The module matrix comes from qr-matrix.ts; the drawing is ours. The symbol keeps
 * the 4-module quiet zone the standard asks for, stays black on white in dark mode
 * (inverted codes defeat many readers) and is drawn at >= 4 CSS px per module, which phone cameras read easily.
 */
import { html, type TemplateResult } from 'lit';
import { type QrMatrix, qrMatrix } from './qr-matrix.js';

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

/**
 * The SVG for `text`, or undefined when the text cannot be encoded. `label` is the text alternative; the
 * details it refers to are rendered next to the code as real text.
 */
export function qrSvg(text: string, label: string): TemplateResult | undefined {
  let matrix: QrMatrix;
  try {
    matrix = qrMatrix(text);
  } catch {
    return undefined; // too long for any QR version: the requisites are still shown
  }
  const side = matrix.size + 2 * QUIET_ZONE;
  const px = Math.max(MIN_SIZE_PX, side * MIN_MODULE_PX);
  // Written inside the <svg> element, the rect and path are parsed as SVG: no svg`` fragment needed (Lit's rule).
  return html`<svg part="qr" class="qr" role="img" aria-label=${label} viewBox=${`0 0 ${side} ${side}`}
    width=${px} height=${px} shape-rendering="crispEdges"><rect width=${side} height=${side} fill="#fff"></rect>
    <path d=${qrPath(matrix)} fill="#000"></path></svg>`;
}
