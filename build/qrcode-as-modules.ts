import { readFileSync } from 'node:fs';
import type { Plugin as EsbuildPlugin } from 'esbuild';

/** A file of qrcode's encoder building blocks, which shared/qr-matrix.ts imports one by one. */
const QRCODE_CORE = /\/node_modules\/qrcode\/lib\/core\/[\w-]+\.js$/;

/**
 * For the qr-encoder part, the one file of the script-tag build that carries the encoder (built by esbuild with the
 * other parts, build/part-files.ts; the core draws the matrix the proxy sends and has no encoder).
 * qrcode is CommonJS: bundled as it is, each of the core files that qr-matrix.ts imports is wrapped in a
 * module-loader closure and its functions stay properties with their long names (`exports.getSymbolTotalCodewords`),
 * which no minifier may rename. Its files are plain (`const x = require('./y')`, `exports.name = ...`,
 * `module.exports = Class`), so this loads each one as the same code written as an ES module: the functions become
 * top-level bindings that tree-shaking and mangling reach (0.8 kB gzip of the encoder). Anything else in a file
 * (a future version written differently) stops the build instead of bundling a half-converted module. The code
 * itself is qrcode's, unchanged: only its module syntax is rewritten.
 */
export function qrcodeAsModules(): EsbuildPlugin {
  return {
    name: 'payin-qrcode-as-modules',
    setup(build) {
      build.onLoad({ filter: QRCODE_CORE }, ({ path }) => ({
        contents: asModule(path, (message) => {
          throw new Error(message);
        }),
        loader: 'js',
      }));
    },
  };
}

function asModule(id: string, fail: (message: string) => never): string {
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
  if (/\brequire\(|\bexports\b/.test(code)) fail(`${id} is not in the CommonJS shape qrcodeAsModules() converts`);
  return code;
}
