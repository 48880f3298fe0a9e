import { defineConfig } from 'vitest/config';

// Node-side suites only: the widget's tests run in Chromium (web-test-runner), the end-to-end ones have their
// own config.
export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    exclude: ['test/widget/**', 'test/e2e/**', 'node_modules/**', 'dist/**'],
    environment: 'node',
    // Two files at a time, whatever the cores: the files mostly wait (on sockets, child processes, PostgreSQL and
    // Redis), and Vitest's default (the cores but one) ran one at a time on a 2-core machine. There, with two, the
    // files' own times add up to about 345 s and the suite takes about 200 s.
    maxWorkers: 2,
    testTimeout: 15_000,
    hookTimeout: 15_000,
  },
});
