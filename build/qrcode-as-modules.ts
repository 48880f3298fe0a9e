import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Plugin } from 'vite';

/** An error correction level of the QR standard, by the name qrcode exports it under. */
export type QrLevel = 'L' | 'M' | 'Q' | 'H';

/**
 * qrcode is CommonJS: bundled as it is, each of the core files that qr-matrix.ts imports is wrapped in a
 * module-loader closure and its functions stay properties with their long names (`exports.getSymbolTotalCodewords`),
 * which no minifier may rename. Its files are plain (`const x = require('./y')`, `exports.name = ...`,
 * `module.exports = Class`), so this loads each one as the same code written as an ES module: the functions become
 * top-level bindings that tree-shaking and mangling reach (0.8 kB gzip of the script). Anything else in a file
 * (a future version written differently) stops the build instead of bundling a half-converted module.
 *
 * The script encodes at one error correction level, `level`: src/widget/qr-level.ts, which qr-matrix.ts encodes at
 * too. So the two files whose answers depend on the level are loaded narrowed to that one: see
 * errorCorrectionModule() and formatInfoModule().
 */
export function qrcodeAsModules({ level }: { level: QrLevel }): Plugin {
  return {
    name: 'payin-qrcode-as-modules',
    apply: 'build',
    enforce: 'pre',
    load(id) {
      if (!/\/node_modules\/qrcode\/lib\/core\/[\w-]+\.js$/.test(id)) return null;
      if (id.endsWith('/error-correction-code.js')) return errorCorrectionModule(level);
      if (id.endsWith('/format-info.js')) return formatInfoModule(level);
      const dir = id.slice(0, id.lastIndexOf('/') + 1);
      const hasDefault = (file: string) => /^module\.exports = /m.test(readFileSync(`${dir}${file}.js`, 'utf8'));
      const code = readFileSync(id, 'utf8')
        .replace(/^const (\w+) = require\('\.\/([\w-]+)'\)\.(\w+)$/gm, "import { $3 as $1 } from './$2.js'")
        .replace(/^const (\w+) = require\('\.\/([\w-]+)'\)$/gm, (_, local: string, file: string) =>
          hasDefault(file) ? `import ${local} from './${file}.js'` : `import * as ${local} from './${file}.js'`,
        )
        .replace(/^exports\.(\w+) = function(?: \w+)? ?\(/gm, 'export function $1 (')
        .replace(/^exports\.(\w+) = /gm, 'export const $1 = ')
        .replace(/\bexports\.(\w+)/g, '$1')
        .replace(/^module\.exports = (\w+)$/m, 'export default $1');
      if (/\brequire\(|\bexports\b/.test(code)) this.error(`${id} is not in the CommonJS shape qrcodeAsModules() converts`);
      return code;
    },
  };
}

const require = createRequire(import.meta.url);

/** One of qrcode's own level objects, to ask qrcode with. */
function qrcodeLevel(level: QrLevel): object {
  return (require('qrcode/lib/core/error-correction-level.js') as Record<QrLevel, object>)[level];
}

interface ErrorCorrectionCode {
  getBlocksCount(version: number, level: object): number | undefined;
  getTotalCodewordsCount(version: number, level: object): number | undefined;
}

/**
 * qrcode's error-correction-code.js for one level: its two functions give what qrcode's own give for that level,
 * for versions 1 to 40, read from qrcode here at build time (no count is written down in this project).
 * They take the level argument and leave it unread, as every caller asks about the level the script was built
 * for (qr-level.ts feeds both): a check of it cost 60 B of the script's gzip. The tables of the three levels the
 * script never uses were 0.4 kB.
 */
export function errorCorrectionModule(level: QrLevel): string {
  const qrcode = require('qrcode/lib/core/error-correction-code.js') as ErrorCorrectionCode;
  const asked = qrcodeLevel(level);
  const column = (count: (version: number, level: object) => number | undefined) =>
    Array.from({ length: 40 }, (_, index) => {
      const value = count(index + 1, asked);
      if (!Number.isInteger(value)) throw new Error(`qrcode gave no count for version ${index + 1}, level ${level}`);
      return value;
    });
  return `const BLOCKS = ${JSON.stringify(column(qrcode.getBlocksCount))}
const CODEWORDS = ${JSON.stringify(column(qrcode.getTotalCodewordsCount))}
export function getBlocksCount (version, _level) { return BLOCKS[version - 1] }
export function getTotalCodewordsCount (version, _level) { return CODEWORDS[version - 1] }
`;
}

/**
 * qrcode's format-info.js for one level: the 15 format bits of each of the eight masks, as qrcode's BCH code
 * makes them, made here at build time (the level argument is left unread, as above).
 */
export function formatInfoModule(level: QrLevel): string {
  const qrcode = require('qrcode/lib/core/format-info.js') as { getEncodedBits(level: object, mask: number): number };
  const asked = qrcodeLevel(level);
  const bits = Array.from({ length: 8 }, (_, mask) => qrcode.getEncodedBits(asked, mask));
  return `const BITS = ${JSON.stringify(bits)}
export function getEncodedBits (_level, mask) { return BITS[mask] }
`;
}
