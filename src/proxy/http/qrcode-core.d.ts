// Types for the qrcode package's encoder module, which qr-matrix-answer.ts imports by its path (the package types
// only its top-level entry, whose Node build also loads the PNG, SVG and terminal renderers). Only what is used.
declare module 'qrcode/lib/core/qrcode.js' {
  /** The symbol's modules: `size` per side, get(row, col) 1 for a dark one. */
  interface BitMatrix {
    size: number;
    get(row: number, col: number): number;
  }
  /** Encodes `text` (its segments in the modes that hold it shortest); throws when no QR version can hold it. */
  export function create(text: string, options: { errorCorrectionLevel: 'L' | 'M' | 'Q' | 'H' }): { modules: BitMatrix };
}
