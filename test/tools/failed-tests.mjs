// What a failed Vitest suite names in the summary of `npm test`: its JSON report read back, so that the last lines
// of a long run (all a CI log may keep) say which tests failed and how, not only which suite.
import { readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';

/** Vitest's arguments that also write its JSON report to a file of its own, beside the usual output. */
export function withJsonReport(args, name) {
  const file = join(tmpdir(), `payin-checkout-${process.pid}-${name.replace(/\W+/g, '-').replace(/-$/, '')}.json`);
  return { args: [...args, '--reporter=default', '--reporter=json', `--outputFile.json=${file}`], file };
}

/**
 * One line for each failed test in the report at `file` ("test/x.test.ts > describe > it: first line of the error"),
 * and one for a file that failed outside its tests; the report is removed once read. No report (the suite never
 * got to write one) is a line that says so.
 */
export function failedTests(file) {
  let report;
  try {
    report = JSON.parse(readFileSync(file, 'utf8'));
  } catch {
    return ['(no test report was written: see the output above)'];
  } finally {
    rmSync(file, { force: true });
  }
  const lines = [];
  for (const result of report.testResults ?? []) {
    const path = relative(process.cwd(), result.name);
    const failed = (result.assertionResults ?? []).filter((test) => test.status === 'failed');
    for (const test of failed) lines.push(`${path} > ${test.fullName}: ${firstLine(test.failureMessages?.[0])}`);
    if (!failed.length && result.status === 'failed') lines.push(`${path}: ${firstLine(result.message)}`);
  }
  return lines;
}

function firstLine(text) {
  return (text ?? '').split('\n')[0].slice(0, 300);
}
