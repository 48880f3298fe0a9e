// Types for the building blocks of the qrcode package's encoder that qr-matrix.ts imports one by one (the
// package types only its top-level API). Only what is used is declared.
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
  const levels: { M: { bit: number } };
  export default levels;
}
declare module 'qrcode/lib/core/error-correction-code.js' {
  const ecCode: {
    getBlocksCount(version: number, level: { bit: number }): number;
    getTotalCodewordsCount(version: number, level: { bit: number }): number;
  };
  export default ecCode;
}
declare module 'qrcode/lib/core/utils.js' {
  const utils: { getSymbolSize(version: number): number; getSymbolTotalCodewords(version: number): number };
  export default utils;
}
declare module 'qrcode/lib/core/finder-pattern.js' {
  const finder: { getPositions(version: number): [number, number][] };
  export default finder;
}
declare module 'qrcode/lib/core/alignment-pattern.js' {
  const alignment: { getPositions(version: number): [number, number][] };
  export default alignment;
}
declare module 'qrcode/lib/core/format-info.js' {
  const formatInfo: { getEncodedBits(level: { bit: number }, mask: number): number };
  export default formatInfo;
}
declare module 'qrcode/lib/core/mask-pattern.js' {
  import type BitMatrix from 'qrcode/lib/core/bit-matrix.js';
  const maskPattern: {
    getBestMask(matrix: BitMatrix, setupFormat: (mask: number) => void): number;
    applyMask(mask: number, matrix: BitMatrix): void;
  };
  export default maskPattern;
}
