/**
 * The qr-encoder part (part-types.ts): the QR encoder, for a payment that came without its matrix. lean-qr's nano
 * build (a QR encoder made for small browser bundles: byte mode, UTF-8, no tables it does not need) at error
 * correction level M, the level the proxy encodes at.
 */
import { correction, generate } from 'lean-qr/nano';
import type { QrMatrix } from '../../shared/qr-modules.js';

/**
 * The module matrix of `text`. Throws when no QR can hold it (lean-qr's error, with a `code`); the caller then
 * draws no QR and the requisites still say how to pay.
 */
export function qrMatrix(text: string): QrMatrix {
  const code = generate(text, { minCorrectionLevel: correction.M });
  // lean-qr reads a module as get(x, y): x is the column, y the row.
  return { size: code.size, isDark: (row, col) => code.get(col, row) };
}
