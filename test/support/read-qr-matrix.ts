/** Reads back a QR module matrix (the proxy's `qrMatrix`) with an independent QR reader (jsQR). */
import jsqr from 'jsqr';
import { expect } from 'vitest';
import type { QrMatrix } from '../../src/shared/qr-modules.js';
import { isQrModules, unpackQrModules } from '../../src/shared/qr-modules.js';

// jsqr is CommonJS declared with `export default`: under NodeNext the default import is the module object.
const jsQR = jsqr.default;

/** The matrix drawn black on white, 4 px a module with a 4-module quiet zone, and read back. */
export function read(matrix: QrMatrix): string | undefined {
  const scale = 4;
  const side = (matrix.size + 8) * scale;
  const pixels = new Uint8ClampedArray(side * side * 4).fill(255);
  for (let y = 0; y < side; y++) {
    for (let x = 0; x < side; x++) {
      const row = Math.floor(y / scale) - 4;
      const col = Math.floor(x / scale) - 4;
      const dark = row >= 0 && col >= 0 && row < matrix.size && col < matrix.size && matrix.isDark(row, col);
      if (dark) pixels.fill(0, (y * side + x) * 4, (y * side + x) * 4 + 3);
    }
  }
  return jsQR(pixels, side, side)?.data;
}

/** The text the matrix of a payment view's answer reads as. */
export function decoded(payment: { qrMatrix?: unknown }): string | undefined {
  expect(isQrModules(payment.qrMatrix)).toBe(true);
  return read(unpackQrModules(payment.qrMatrix)!);
}
