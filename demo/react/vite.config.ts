/**
 * The demo's React app, built apart from the library: `vite build --config demo/react/vite.config.ts` (the demo
 * server runs it when the app is missing or older than its sources). It is served under /react/ by the demo
 * storefront, and imports the element by its package name, as a shop's app would.
 */
import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

export default defineConfig({
  root: fileURLToPath(new URL('.', import.meta.url)),
  base: '/react/',
  publicDir: false,
  plugins: [react()],
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    target: 'es2022',
  },
});
