import { defineConfig } from 'vitest/config';

// Node-side suites only: the widget's tests run in Chromium (web-test-runner), the end-to-end ones have their
// own config.
export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    exclude: ['test/widget/**', 'test/e2e/**', 'node_modules/**', 'dist/**'],
    environment: 'node',
    testTimeout: 15_000,
    hookTimeout: 15_000,
  },
});
