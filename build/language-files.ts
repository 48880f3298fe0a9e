import { fileURLToPath } from 'node:url';
import type { Plugin } from 'vite';
import { buildBesideTheScript } from './beside-the-script.js';

/** dist/payin-checkout.<lang>.js for each language: `export default` its translation, minified, in UTF-8. */
export function languageFiles(languages: readonly string[]): Plugin {
  return {
    name: 'payin-language-files',
    apply: 'build',
    async closeBundle() {
      for (const lang of languages) {
        await buildBesideTheScript({
          stdin: {
            contents: `export { ${lang} as default } from './src/widget/translations/${lang}.ts';`,
            resolveDir: fileURLToPath(new URL('..', import.meta.url)),
            loader: 'ts',
          },
          outfile: `dist/payin-checkout.${lang}.js`,
        });
      }
    },
  };
}
