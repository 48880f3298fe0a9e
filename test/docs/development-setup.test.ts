/**
 * A contributor who may not install packages as root reads docs/development.md for the one apt-get command that
 * `npm test` would otherwise run itself: that command names every Debian package the test command may install
 * (test/tools/run-all.mjs and the finders it asks), so that following it once is enough for the suites to start.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

const read = (path: string) => readFileSync(new URL(`../../${path}`, import.meta.url), 'utf8');

/**
 * The Debian packages the test command installs when missing: each `!found && 'package'`, and the interpreters'
 * `['binary', 'package']` pairs.
 */
function packagesTheTestCommandInstalls(): string[] {
  const runAll = read('test/tools/run-all.mjs');
  const source = runAll + read('test/tools/find-webkit.mjs');
  const whenMissing = [...source.matchAll(/&& '([a-z0-9.-]+)'/g)].map((m) => m[1]!);
  const start = runAll.indexOf('const interpreters');
  const interpreterList = runAll.slice(start, runAll.indexOf('.filter(', start));
  const interpreters = [...interpreterList.matchAll(/\['[a-z0-9]+', '([a-z0-9.-]+)'\]/g)].map((m) => m[1]!);
  return [...whenMissing, ...interpreters];
}

describe('docs/development.md', () => {
  it('gives the apt-get command with every package npm test may install', () => {
    const packages = packagesTheTestCommandInstalls();
    expect(packages).toEqual(expect.arrayContaining(['chromium', 'postgresql', 'webkit2gtk-driver', 'php-cli']));
    const command = /`apt-get install ([^`]+)`/.exec(read('docs/development.md'))?.[1]?.split(/\s+/) ?? [];
    expect(packages.filter((name) => !command.includes(name))).toEqual([]);
  });

  it('names the suites npm test runs, in the order it runs them', () => {
    const runAll = read('test/tools/run-all.mjs');
    const list = runAll.slice(runAll.indexOf('const suites'), runAll.indexOf('];', runAll.indexOf('const suites')));
    const suites = [...list.matchAll(/^\s*\['([^'(]+?)(?: \([^)]*\))?', /gm)].map((m) => m[1]!);
    expect(suites).toContain('build');
    const comment = /^npm test +# (.+)$/m.exec(read('docs/development.md'))?.[1];
    expect(comment?.split(', ')).toEqual(suites);
  });
});
