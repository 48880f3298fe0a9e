import { defineConfig } from 'vitest/config';

// The suites that need the build: the published-package checks (pack contents, size budget) and the end-to-end
// runs in Chromium against the demo storefront. `npm test` runs them after `npm run build`. One file at a time,
// because each starts its own storefront, sandbox and browser; the timeouts are long but bounded.
export default defineConfig({
  test: {
    include: ['test/e2e/**/*.test.ts'],
    exclude: ['node_modules/**', 'dist/**'],
    environment: 'node',
    fileParallelism: false,
    testTimeout: 90_000,
    hookTimeout: 60_000,
    teardownTimeout: 15_000,
    retry: 0,
  },
});
