/** Reads a QR code the way a shopper's phone would: from a screenshot, with an independent reader (jsQR). */
import jsqr from 'jsqr';
import { PNG } from 'pngjs';

// jsqr is CommonJS declared with `export default`: under NodeNext the default import is the module object.
const jsQR = jsqr.default;

/** The text of the QR code in a PNG screenshot, or undefined when none reads. */
export function decodeQr(png: Buffer): string | undefined {
  const image = PNG.sync.read(png);
  return jsQR(new Uint8ClampedArray(image.data.buffer, image.data.byteOffset, image.data.byteLength), image.width, image.height)?.data;
}
