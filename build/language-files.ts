import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { build as esbuild } from 'esbuild';
import type { Plugin } from 'vite';
import { shortenTranslationKeys } from './short-names.js';

/** dist/payin-checkout.<lang>.js for each language: `export default` its translation, minified, in UTF-8. */
export function languageFiles(languages: string[]): Plugin {
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
          bundle: true,
          format: 'esm',
          target: 'es2022',
          minify: true,
          charset: 'utf8',
          logLevel: 'warning',
          plugins: [
            {
              name: 'payin-short-translation-keys',
              setup(build) {
                build.onLoad({ filter: /\/src\/widget\/.*\.ts$/ }, ({ path }) => {
                  const code = readFileSync(path, 'utf8');
                  return { contents: shortenTranslationKeys(code, path) ?? code, loader: 'ts' };
                });
              },
            },
          ],
        });
      }
    },
  };
}
