import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { errorCorrectionModule, type QrLevel } from '../../build/qrcode-as-modules.js';

const require = createRequire(import.meta.url);
const qrcode = require('qrcode/lib/core/error-correction-code.js');
const levels: Record<QrLevel, object> = require('qrcode/lib/core/error-correction-level.js');

interface Narrowed {
  getBlocksCount(version: number, level: object): number;
  getTotalCodewordsCount(version: number, level: object): number;
}

/** The module the script build bundles for `level`, run here with qrcode's own level objects. */
function narrowed(level: QrLevel): Narrowed {
  const source = errorCorrectionModule(level);
  const imports = /^import \{ (\w) as LEVEL \} from '\.\/error-correction-level\.js'$/m;
  expect(source).toMatch(imports);
  const body = `${source.replace(imports, '').replace(/^export /gm, '')}\nreturn { getBlocksCount, getTotalCodewordsCount }`;
  return new Function('LEVEL', body)(levels[level]);
}

describe('the script build’s qrcode error correction tables', () => {
  for (const level of ['L', 'M', 'Q', 'H'] as const) {
    it(`answer as qrcode does for level ${level}, versions 1 to 40`, () => {
      const module = narrowed(level);
      for (let version = 1; version <= 40; version++) {
        expect(module.getBlocksCount(version, levels[level])).toBe(qrcode.getBlocksCount(version, levels[level]));
        expect(module.getTotalCodewordsCount(version, levels[level])).toBe(qrcode.getTotalCodewordsCount(version, levels[level]));
      }
    });
  }

  it('refuse another level instead of answering nothing', () => {
    const module = narrowed('M');
    expect(() => module.getBlocksCount(5, levels.L)).toThrow(/level M only/);
    expect(() => module.getTotalCodewordsCount(5, levels.H)).toThrow(/level M only/);
  });
});
