/**
 * The error correction level of the widget's QR codes: M, which survives 15 % damage (a smudged or glossy screen)
 * at a size phones read easily. qr-matrix.ts encodes at QR_LEVEL, and the script-tag build bundles qrcode's tables
 * and format bits of QR_LEVEL_NAME alone (vite.config.ts reads it here); a test holds the two together.
 */
import { M } from 'qrcode/lib/core/error-correction-level.js';

export const QR_LEVEL = M;
export const QR_LEVEL_NAME = 'M';
