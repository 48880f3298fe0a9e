import { defineConfig } from 'vitest/config';

// The suites that need the build: the published-package checks (pack contents, size budget) and the end-to-end
// runs in Chromium against the demo storefront. `npm test` runs them after `npm run build`. Two files at a time:
// each starts its own storefront, sandbox and browser on free ports, so two share nothing but the machine, and
// most of a file's time is spent waiting on its pages (two at a time took 134 to 139 s where one took 230 s, on
// two cores). The timeouts are long but bounded.
export default defineConfig({
  test: {
    include: ['test/e2e/**/*.test.ts'],
    exclude: ['node_modules/**', 'dist/**'],
    environment: 'node',
    fileParallelism: true,
    maxWorkers: 2,
    testTimeout: 90_000,
    hookTimeout: 60_000,
    teardownTimeout: 15_000,
    retry: 0,
  },
});
