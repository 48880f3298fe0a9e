/**
 * The payment's QR as a PNG, for the shopper who pays from another device or from the gallery: shared through the
 * Web Share API as a file, or saved through a download link. Drawn on a canvas from the module matrix the SVG is
 * drawn from (qr-code.ts); a data: URL needs no network and no CSP exception. The last image (URL and file) is kept,
 * because the element re-renders every second while the countdown runs.
 */
import type { QrMatrix } from '../../shared/qr-modules.js';
import { qrPath } from '../qr-code.js';

const MODULE_PX = 8;
let last: { matrix: QrMatrix; url: string; file: File } | undefined;

/**
 * The PNG of `matrix`, as a `data:image/png;base64,...` URL (for a download link) and as a file named `name` (to
 * share), or undefined when it cannot be drawn.
 */
export function qrPng(matrix: QrMatrix, name: string): { url: string; file: File } | undefined {
  if (last?.matrix === matrix) return last;
  try {
    const side = (matrix.size + 8) * MODULE_PX; // with the 4-module quiet zone on each side, as the SVG
    const canvas = document.createElement('canvas');
    canvas.width = canvas.height = side;
    const g = canvas.getContext('2d')!;
    g.fillStyle = '#fff';
    g.fillRect(0, 0, side, side);
    g.fillStyle = '#000';
    g.scale(MODULE_PX, MODULE_PX);
    g.fill(new Path2D(qrPath(matrix)));
    const url = canvas.toDataURL('image/png');
    const bytes = Uint8Array.from(atob(url.slice(url.indexOf(',') + 1)), (c) => c.charCodeAt(0));
    last = { matrix, url, file: new File([bytes], name, { type: 'image/png' }) };
    return last;
  } catch {
    return undefined; // no canvas (a server, a locked-down browser)
  }
}
