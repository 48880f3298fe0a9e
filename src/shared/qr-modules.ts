/**
 * The QR's module matrix as the proxy sends it beside `qr` (PaymentView.qrMatrix), so that the browser draws the
 * code without encoding it: `size` modules per side (21 to 177, the quiet zone not included) and `dark`, the
 * size x size modules row by row from the top-left, one bit each (1 = dark), packed eight to a byte with the
 * first module in the byte's highest bit, the last byte padded with 0 bits, in standard base64 with its padding.
 * A version 1 code (21 x 21 = 441 bits) is 56 bytes, 76 characters.
 */

/** A QR code's modules, as the element draws them. */
export interface QrMatrix {
  /** Modules per side, without the quiet zone. */
  size: number;
  isDark(row: number, col: number): boolean;
}

/** The wire form; see the file comment. */
export interface QrModules {
  size: number;
  dark: string;
}

/** The characters of `size` x `size` modules in base64. */
const base64Length = (size: number) => 4 * Math.ceil(Math.ceil((size * size) / 8) / 3);

/** Whether `value` has the shape of a QrModules: a QR version's side (21, 25, ... 177) and base64 of its length. */
export function isQrModules(value: unknown): value is QrModules {
  const { size, dark } = Object(value) as Partial<QrModules>;
  return (
    Number.isInteger(size) &&
    size! >= 21 &&
    size! <= 177 &&
    (size! - 17) % 4 === 0 &&
    typeof dark === 'string' &&
    dark.length === base64Length(size!) &&
    /^[A-Za-z0-9+/]*={0,2}$/.test(dark)
  );
}

export function packQrModules(matrix: QrMatrix): QrModules {
  const { size } = matrix;
  const bytes = new Uint8Array(Math.ceil((size * size) / 8));
  for (let i = 0; i < size * size; i++) if (matrix.isDark(Math.floor(i / size), i % size)) bytes[i >>> 3]! |= 0x80 >>> (i & 7);
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return { size, dark: btoa(binary) };
}

/** The matrix of `value`, or undefined when it is no QrModules (absent, or garbled on the way). */
export function unpackQrModules(value: unknown): QrMatrix | undefined {
  if (!isQrModules(value)) return undefined;
  const bits = atob(value.dark); // cannot throw: isQrModules checked the alphabet and the length
  const { size } = value;
  return { size, isDark: (row, col) => ((bits.charCodeAt((row * size + col) >>> 3) >>> (7 - ((row * size + col) & 7))) & 1) === 1 };
}
