/**
 * The summary of `npm test` names each failed test: a real Vitest run of a small file with a failing test, and one
 * of a file that fails before any test runs, read back from the JSON report Vitest writes beside its usual output.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
// @ts-expect-error: a plain .mjs tool of the test command, without typings
import { failedTests, withJsonReport } from './failed-tests.mjs';

// Inside the project, so that the files find Vitest, but in test-results/, outside test/ and ignored by git, so that
// a run killed before it removes the folder leaves nothing the project's own Vitest, tsc or Biome would take up.
const dir = fileURLToPath(new URL(`../../test-results/failing-run-${process.pid}/`, import.meta.url));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Runs Vitest on `files` (name -> source) as the test command runs a suite, and returns the summary's lines. */
function summaryOf(files: Record<string, string>): string[] {
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  for (const [name, source] of Object.entries(files)) writeFileSync(join(dir, name), source);
  // A config of its own: without it, Vitest would find the project's, whose files are elsewhere.
  writeFileSync(join(dir, 'vitest.config.mjs'), `export default { test: { include: ['*.test.ts'] } };`);
  const report = withJsonReport(['vitest', 'run', '--root', dir, '--config', join(dir, 'vitest.config.mjs')], 'failing-run');
  const run = spawnSync('npx', report.args, { encoding: 'utf8', timeout: 60_000 });
  expect(run.status).toBe(1);
  const lines = failedTests(report.file);
  expect(existsSync(report.file)).toBe(false); // read once, then removed
  return lines;
}

describe("npm test's summary of a failed suite", () => {
  it('names each failed test, its file and the first line of its error; a file that cannot load, with its error', () => {
    const lines = summaryOf({
      'sums.test.ts': `import { describe, expect, it } from 'vitest';
        describe('sums', () => { it('adds', () => expect(1 + 1).toBe(3)); it('passes', () => expect(2).toBe(2)); });`,
      'broken.test.ts': `throw new Error('no database here');`,
    });
    expect(lines.sort()).toEqual([
      expect.stringMatching(/broken\.test\.ts: .*no database here/),
      expect.stringMatching(/sums\.test\.ts > sums adds: AssertionError: expected 2 to be 3/),
    ]);
  }, 90_000);

  it("leaves its failing files where the project's own run never collects them, even when it is killed before it cleans up", () => {
    summaryOf({ 'sums.test.ts': `import { expect, it } from 'vitest'; it('adds', () => expect(1 + 1).toBe(3));` });
    // As a run interrupted (Ctrl-C, a time-out) would leave them: the project's next run must not fail on them.
    const listed = spawnSync('npx', ['vitest', 'list', '--filesOnly'], { encoding: 'utf8', timeout: 60_000 });
    expect(listed.status).toBe(0);
    expect(listed.stdout).toContain('test/tools/failed-tests.test.ts');
    expect(listed.stdout).not.toContain('sums.test.ts');
  }, 90_000);

  it('says so when the suite wrote no report', () => {
    expect(failedTests(join(dir, 'never-written.json'))).toEqual(['(no test report was written: see the output above)']);
  });
});
