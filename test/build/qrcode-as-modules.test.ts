import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { errorCorrectionModule, formatInfoModule, type QrLevel } from '../../build/qrcode-as-modules.js';

const require = createRequire(import.meta.url);
const errorCorrection = require('qrcode/lib/core/error-correction-code.js');
const formatInfo = require('qrcode/lib/core/format-info.js');
const levels: Record<QrLevel, object> = require('qrcode/lib/core/error-correction-level.js');

/** An exported function: (version, level) or, for the format bits, (level, mask). */
type Exported = (a: unknown, b: unknown) => number;

/** A module the script build bundles for `level`, run here with qrcode's own level objects; its exports by name. */
function run(source: string, level: QrLevel): Record<string, Exported> {
  const imports = /^import \{ (\w) as LEVEL \} from '\.\/error-correction-level\.js'$/m;
  expect(source.match(imports)?.[1]).toBe(level);
  const exported = [...source.matchAll(/^export function (\w+)/gm)].map((m) => m[1]);
  const body = `${source.replace(imports, '').replace(/^export /gm, '')}\nreturn { ${exported.join(', ')} }`;
  return new Function('LEVEL', body)(levels[level]);
}

describe('the script build’s qrcode, narrowed to one error correction level', () => {
  for (const level of ['L', 'M', 'Q', 'H'] as const) {
    it(`counts blocks and codewords as qrcode does for level ${level}, versions 1 to 40`, () => {
      const narrowed = run(errorCorrectionModule(level), level);
      for (let version = 1; version <= 40; version++) {
        for (const name of ['getBlocksCount', 'getTotalCodewordsCount']) {
          expect(narrowed[name]!(version, levels[level])).toBe(errorCorrection[name](version, levels[level]));
        }
      }
    });

    it(`gives the format bits qrcode does for level ${level}, masks 0 to 7`, () => {
      const narrowed = run(formatInfoModule(level), level);
      for (let mask = 0; mask < 8; mask++) {
        expect(narrowed.getEncodedBits!(levels[level], mask)).toBe(formatInfo.getEncodedBits(levels[level], mask));
      }
    });
  }

  it('refuses another level instead of answering nothing', () => {
    const counts = run(errorCorrectionModule('M'), 'M');
    expect(() => counts.getBlocksCount!(5, levels.L)).toThrow(/level M only/);
    expect(() => counts.getTotalCodewordsCount!(5, levels.H)).toThrow(/level M only/);
    expect(() => run(formatInfoModule('M'), 'M').getEncodedBits!(levels.Q, 0)).toThrow(/level M only/);
  });
});
