import { fileURLToPath } from 'node:url';
import { build as esbuild } from 'esbuild';
import type { Plugin } from 'vite';

/**
 * How every file beside the script is built (a language, a part): one minified ES module, which the script
 * imports by URL, in UTF-8 so that the texts stay readable and small.
 */
export const BESIDE_THE_SCRIPT = {
  bundle: true,
  format: 'esm',
  target: 'es2022',
  minify: true,
  charset: 'utf8',
  logLevel: 'warning',
} as const;

/** dist/payin-checkout.<lang>.js for each language: `export default` its translation, minified, in UTF-8. */
export function languageFiles(languages: readonly string[]): Plugin {
  return {
    name: 'payin-language-files',
    apply: 'build',
    async closeBundle() {
      for (const lang of languages) {
        await esbuild({
          stdin: {
            contents: `export { ${lang} as default } from './src/widget/translations/${lang}.ts';`,
            resolveDir: fileURLToPath(new URL('..', import.meta.url)),
            loader: 'ts',
          },
          outfile: `dist/payin-checkout.${lang}.js`,
          ...BESIDE_THE_SCRIPT,
        });
      }
    },
  };
}
