/**
 * The operator's console page, built on its own: dist/console/payin-console.js (Lit and the page, one ES module),
 * and beside it dist/console/page-script.js, a module whose default export is that script's text, which the
 * console's server imports to serve it from any runtime without a file system (src/console-api/console-page.ts).
 * Nothing here touches the shopper's script (vite.config.ts).
 */
import { defineConfig, type Plugin } from 'vite';

function scriptAsModule(): Plugin {
  return {
    name: 'payin-console-script-as-module',
    apply: 'build',
    generateBundle(_options, bundle) {
      const chunk = Object.values(bundle).find((file) => file.type === 'chunk' && file.isEntry);
      if (chunk?.type !== 'chunk') throw new Error('the console build made no script');
      this.emitFile({ type: 'asset', fileName: 'page-script.js', source: `export default ${JSON.stringify(chunk.code)};\n` });
    },
  };
}

export default defineConfig({
  publicDir: false,
  plugins: [scriptAsModule()],
  build: {
    outDir: 'dist/console',
    emptyOutDir: false,
    target: 'es2022',
    minify: true,
    sourcemap: false,
    copyPublicDir: false,
    // Library mode leaves an ES module's whitespace and names as they are; the page is served whole, so squeeze it.
    rolldownOptions: { output: { minify: true } },
    lib: {
      entry: 'src/console/payin-console.ts',
      formats: ['es'],
      fileName: () => 'payin-console.js',
    },
  },
});
