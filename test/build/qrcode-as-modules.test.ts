import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { errorCorrectionModule, formatInfoModule, type QrLevel } from '../../build/qrcode-as-modules.js';
import { QR_LEVEL, QR_LEVEL_NAME } from '../../src/widget/qr-level.js';

const require = createRequire(import.meta.url);
const errorCorrection = require('qrcode/lib/core/error-correction-code.js');
const formatInfo = require('qrcode/lib/core/format-info.js');
const levels: Record<QrLevel, object> = require('qrcode/lib/core/error-correction-level.js');

/** An exported function: (version, level) or, for the format bits, (level, mask). */
type Exported = (a: unknown, b: unknown) => number;

/** A module the script build bundles in place of one of qrcode's, run here: its exports by name. */
function run(source: string): Record<string, Exported> {
  expect(source).not.toMatch(/^import /m);
  const exported = [...source.matchAll(/^export function (\w+)/gm)].map((m) => m[1]);
  return new Function(`${source.replace(/^export /gm, '')}\nreturn { ${exported.join(', ')} }`)();
}

describe('the script build’s qrcode, narrowed to one error correction level', () => {
  it('is narrowed to the level the widget encodes at', () => {
    // vite.config.ts narrows to QR_LEVEL_NAME; qr-matrix.ts encodes at QR_LEVEL.
    expect(QR_LEVEL).toBe(levels[QR_LEVEL_NAME]);
  });

  for (const level of ['L', 'M', 'Q', 'H'] as const) {
    it(`counts blocks and codewords as qrcode does for level ${level}, versions 1 to 40`, () => {
      const narrowed = run(errorCorrectionModule(level));
      for (let version = 1; version <= 40; version++) {
        for (const name of ['getBlocksCount', 'getTotalCodewordsCount']) {
          expect(narrowed[name]!(version, levels[level])).toBe(errorCorrection[name](version, levels[level]));
        }
      }
    });

    it(`gives the format bits qrcode does for level ${level}, masks 0 to 7`, () => {
      const narrowed = run(formatInfoModule(level));
      for (let mask = 0; mask < 8; mask++) {
        expect(narrowed.getEncodedBits!(levels[level], mask)).toBe(formatInfo.getEncodedBits(levels[level], mask));
      }
    });
  }
});
