// Types for the building blocks of the qrcode package's encoder that qr-matrix.ts imports one by one (the
// package types only its top-level API). Only what is used is declared. The files whose `module.exports` is a class
// have a default export; the others are imported as namespaces of their `exports.name` members (Node, bundlers
// and the script-tag build, which loads them as ES modules, all see those as named exports).
declare module 'qrcode/lib/core/bit-matrix.js' {
  class BitMatrix {
    constructor(size: number);
    size: number;
    set(row: number, col: number, value: number, reserved: boolean): void;
    get(row: number, col: number): number;
    isReserved(row: number, col: number): number;
  }
  export default BitMatrix;
}
declare module 'qrcode/lib/core/reed-solomon-encoder.js' {
  class ReedSolomonEncoder {
    constructor(degree: number);
    encode(data: Uint8Array): Uint8Array;
  }
  export default ReedSolomonEncoder;
}
declare module 'qrcode/lib/core/error-correction-level.js' {
  export const M: { bit: number };
}
declare module 'qrcode/lib/core/error-correction-code.js' {
  export function getBlocksCount(version: number, level: { bit: number }): number;
  export function getTotalCodewordsCount(version: number, level: { bit: number }): number;
}
declare module 'qrcode/lib/core/utils.js' {
  export function getSymbolSize(version: number): number;
  export function getSymbolTotalCodewords(version: number): number;
}
declare module 'qrcode/lib/core/finder-pattern.js' {
  export function getPositions(version: number): [number, number][];
}
declare module 'qrcode/lib/core/alignment-pattern.js' {
  export function getPositions(version: number): [number, number][];
}
declare module 'qrcode/lib/core/format-info.js' {
  export function getEncodedBits(level: { bit: number }, mask: number): number;
}
declare module 'qrcode/lib/core/mask-pattern.js' {
  import type BitMatrix from 'qrcode/lib/core/bit-matrix.js';
  export function getBestMask(matrix: BitMatrix, setupFormat: (mask: number) => void): number;
  export function applyMask(mask: number, matrix: BitMatrix): void;
}
