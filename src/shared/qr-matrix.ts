/**
 * Text -> QR module matrix, in byte mode at error correction level M, from the qrcode package's building blocks
 * (Reed-Solomon encoder, block and codeword tables, function-pattern positions, mask selection). Only these are
 * imported, not the package's create(): its mixed-mode segmentation (a graph search, Kanji tables) cost the
 * script-tag build 3 kB for links that are plain bytes anyway. What is left here is the layout of ISO/IEC 18004:
 * bit stream, blocks, interleaving, function patterns, the zigzag data placement and the format/version bits.
 */

/// <reference path="./qrcode-core.d.ts" />
// (Referenced so that every compilation of a module that imports this one has the types of qrcode's core files.)
import * as AlignmentPattern from 'qrcode/lib/core/alignment-pattern.js';
import BitMatrix from 'qrcode/lib/core/bit-matrix.js';
import * as ECCode from 'qrcode/lib/core/error-correction-code.js';
import { M as LEVEL } from 'qrcode/lib/core/error-correction-level.js';
import * as FinderPattern from 'qrcode/lib/core/finder-pattern.js';
import * as FormatInfo from 'qrcode/lib/core/format-info.js';
import * as MaskPattern from 'qrcode/lib/core/mask-pattern.js';
import ReedSolomonEncoder from 'qrcode/lib/core/reed-solomon-encoder.js';
import * as Utils from 'qrcode/lib/core/utils.js';
import type { QrMatrix } from './qr-modules.js';

export type { QrMatrix };

export function qrMatrix(text: string): QrMatrix {
  const bytes = new TextEncoder().encode(text);
  let version = 0;
  let dataCodewords = 0;
  do {
    // The callers draw no QR then; the requisites still say how to pay.
    if (++version > 40) throw new RangeError(`${bytes.length} bytes are too long for a QR code at level M`);
    dataCodewords = Utils.getSymbolTotalCodewords(version) - ECCode.getTotalCodewordsCount(version, LEVEL);
  } while (4 + (version < 10 ? 8 : 16) + bytes.length * 8 > dataCodewords * 8);

  // Bit stream: mode 0100 (bytes), the count, the bytes, a terminator, then the pad codewords 0xEC 0x11 ...
  const data = new Uint8Array(dataCodewords);
  let bit = 0;
  const put = (value: number, length: number) => {
    for (let i = length - 1; i >= 0; i--, bit++) if ((value >>> i) & 1) data[bit >>> 3]! |= 0x80 >>> (bit & 7);
  };
  put(4, 4);
  put(bytes.length, version < 10 ? 8 : 16);
  for (const byte of bytes) put(byte, 8);
  for (let i = Math.ceil(Math.min(bit + 4, dataCodewords * 8) / 8), pad = 0xec; i < dataCodewords; i++, pad ^= 0xec ^ 0x11) data[i] = pad;

  // Blocks (the last `long` ones carry one more data codeword), each with its error correction, interleaved.
  const total = Utils.getSymbolTotalCodewords(version);
  const blocks = ECCode.getBlocksCount(version, LEVEL);
  const ecPerBlock = (total - dataCodewords) / blocks;
  const short = Math.floor(dataCodewords / blocks);
  const encoder = new ReedSolomonEncoder(ecPerBlock);
  const dataBlocks: Uint8Array[] = [];
  const ecBlocks: Uint8Array[] = [];
  for (let b = 0, offset = 0; b < blocks; b++) {
    const chunk = data.subarray(offset, (offset += short + (b >= blocks - (total % blocks) ? 1 : 0)));
    dataBlocks.push(chunk);
    ecBlocks.push(encoder.encode(chunk));
  }
  const codewords: number[] = [];
  for (let i = 0; i <= short; i++) for (const block of dataBlocks) if (i < block.length) codewords.push(block[i]!);
  for (let i = 0; i < ecPerBlock; i++) for (const block of ecBlocks) codewords.push(block[i]!);

  const size = Utils.getSymbolSize(version);
  const m = new BitMatrix(size);
  // A function module; one outside the symbol (a finder's separator at an edge) is left out.
  const fixed = (row: number, col: number, dark: number | boolean) =>
    row >= 0 && col >= 0 && row < size && col < size && m.set(row, col, +dark, true);
  for (const [r0, c0] of FinderPattern.getPositions(version)) {
    for (let r = -1; r <= 7; r++) {
      for (let c = -1; c <= 7; c++) {
        const ring = Math.max(Math.abs(r - 3), Math.abs(c - 3)); // 4 is the light separator
        fixed(r0 + r, c0 + c, ring !== 2 && ring !== 4);
      }
    }
  }
  for (let i = 8; i < size - 8; i++) {
    fixed(6, i, i % 2 === 0);
    fixed(i, 6, i % 2 === 0);
  }
  for (const [r0, c0] of AlignmentPattern.getPositions(version)) {
    for (let r = -2; r <= 2; r++) for (let c = -2; c <= 2; c++) fixed(r0 + r, c0 + c, Math.max(Math.abs(r), Math.abs(c)) !== 1);
  }
  if (version >= 7) {
    let rem = version; // BCH(18, 6) with the generator 0x1F25
    for (let i = 0; i < 12; i++) rem = (rem << 1) ^ ((rem >>> 11) * 0x1f25);
    const bits = (version << 12) | rem;
    for (let i = 0; i < 18; i++) {
      const a = size - 11 + (i % 3);
      const b = Math.floor(i / 3);
      fixed(b, a, (bits >>> i) & 1);
      fixed(a, b, (bits >>> i) & 1);
    }
  }
  const format = (mask: number) => {
    const bits = FormatInfo.getEncodedBits(LEVEL, mask);
    for (let i = 0; i < 15; i++) {
      const dark = (bits >>> i) & 1;
      if (i < 8)
        fixed(i < 6 ? i : i + 1, 8, dark); // down the top-left finder ...
      else fixed(8, i === 8 ? 7 : 14 - i, dark); // ... and along it
      if (i < 8)
        fixed(8, size - 1 - i, dark); // the copy under the top-right finder ...
      else fixed(size - 15 + i, 8, dark); // ... and beside the bottom-left one
    }
    fixed(size - 8, 8, true);
  };
  format(0); // reserves the format areas before the data goes in

  // Data: two-module columns from the right, alternately upwards and downwards, skipping the timing column.
  for (let right = size - 1, i = 0; right >= 1; right -= 2) {
    if (right === 6) right = 5;
    const upward = ((right + 1) & 2) === 0;
    for (let step = 0; step < size; step++) {
      for (let j = 0; j < 2; j++) {
        const row = upward ? size - 1 - step : step;
        if (m.isReserved(row, right - j)) continue;
        // Past the last codeword come the remainder bits, which are light.
        const bit = i < codewords.length * 8 ? (codewords[i >>> 3]! >>> (7 - (i & 7))) & 1 : 0;
        m.set(row, right - j, bit, false);
        i++;
      }
    }
  }
  const mask = MaskPattern.getBestMask(m, format);
  MaskPattern.applyMask(mask, m);
  format(mask);
  return { size, isDark: (row, col) => m.get(row, col) === 1 };
}
