// `npm test`: the typecheck and every suite, in order, each in its own process. A failing suite does not hide
// the ones after it; the exit code is non-zero when any failed. Chrome, Firefox, WebKit, redis-server, PostgreSQL and
// a font for every script of the checkout are found (or installed in one apt-get step) up front, before any test
// worker starts.
import { spawnSync } from 'node:child_process';
import { delimiter, join } from 'node:path';
import { existsSync } from 'node:fs';
import { aptInstall, canAptInstall } from './apt.mjs';
import { failedTests, withJsonReport } from './failed-tests.mjs';
import { ensureChrome, findChrome } from './find-chrome.mjs';
import { ensureFirefox, findFirefox } from './find-firefox.mjs';
import { ensureWebKit, missingWebKitPackages } from './find-webkit.mjs';
import { ensurePostgres, findPostgresBin } from './postgres-server.mjs';
import { ensureRedisServer, findRedisServer } from './redis-server.mjs';

let chrome;
let firefox;
let webkit;

/**
 * True when fontconfig knows a font for every script the checkout speaks (Debian's fonts-noto-core has them all):
 * without them the browser tests measure, and the screenshots show, boxes instead of Odia, Gurmukhi or Urdu.
 */
function hasFonts() {
  const langs = ['hi', 'bn', 'te', 'ta', 'gu', 'kn', 'ml', 'pa', 'or', 'ur'];
  return langs.every((lang) => (spawnSync('fc-list', [`:lang=${lang}`, 'family'], { encoding: 'utf8' }).stdout ?? '').trim() !== '');
}

/** True when `bin` is an executable on PATH. */
function onPath(bin) {
  return (process.env.PATH ?? '').split(delimiter).some((dir) => dir && existsSync(join(dir, bin)));
}
try {
  // Both system tools in one apt-get step when both are missing, before any suite starts.
  // The standalone server's PHP, Python and Ruby snippets run in the node suite.
  const interpreters = [
    ['php', 'php-cli'],
    ['ruby', 'ruby'],
    ['python3', 'python3'],
  ]
    .filter(([bin]) => !onPath(bin))
    .map(([, pkg]) => pkg);
  const missing = [
    !findChrome() && 'chromium',
    !findRedisServer() && 'redis-server',
    !findPostgresBin() && 'postgresql',
    !findFirefox() && 'firefox-esr',
    ...missingWebKitPackages(),
    !hasFonts() && 'fonts-noto-core',
    ...interpreters,
  ].filter(Boolean);
  if (missing.length && canAptInstall()) aptInstall(missing);
  chrome = ensureChrome();
  console.log(`Browser for the browser and end-to-end suites: ${chrome}`);
  console.log(`redis-server for the Redis store suite: ${ensureRedisServer()}`);
  console.log(`PostgreSQL for the PostgreSQL store suite: ${ensurePostgres()}`);
  const stillMissing = ['php', 'ruby', 'python3'].filter((bin) => !onPath(bin));
  if (stillMissing.length)
    throw new Error(
      `Missing for the standalone server's snippet tests: ${stillMissing.join(', ')}. Install them, e.g.\n  sudo apt-get install -y php-cli ruby python3`,
    );
  firefox = ensureFirefox();
  console.log(`Firefox for the cross-browser end-to-end test: ${firefox}`);
  webkit = ensureWebKit();
  console.log(`WebKit's WebDriver for the WebKit end-to-end suite: ${webkit}`);
} catch (error) {
  console.error(error.message);
  process.exit(1);
}
const env = { ...process.env, CHROME_PATH: chrome, FIREFOX_PATH: firefox, WEBKIT_DRIVER: webkit };

const suites = [
  ['lint and format check (biome)', 'npx', ['biome', 'check']],
  ['typecheck', 'npx', ['tsc', '-p', 'tsconfig.json']],
  ['node tests (vitest)', 'npx', ['vitest', 'run']],
  ['build', 'npm', ['run', 'build', '--silent']],
  ['browser tests (web-test-runner)', 'npx', ['web-test-runner'], 'web-test-runner.config.mjs'],
  ['end-to-end tests (playwright-core)', 'npx', ['vitest', 'run', '--config', 'vitest.e2e.config.ts'], 'vitest.e2e.config.ts'],
];

const results = [];
for (const [name, command, args, needs] of suites) {
  if (needs && !existsSync(needs)) {
    console.error(`\n=== ${name}: MISSING (${needs} not found)`);
    results.push([name, false, []]);
    continue;
  }
  console.log(`\n=== ${name}`);
  const started = Date.now();
  const report = args[0] === 'vitest' ? withJsonReport(args, name) : undefined;
  const run = spawnSync(command, report?.args ?? args, { stdio: 'inherit', env });
  const ok = run.status === 0;
  console.log(`=== ${name}: ${ok ? 'passed' : 'FAILED'} in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  const failures = report ? failedTests(report.file) : [];
  results.push([name, ok, ok ? [] : failures]);
}

const failed = results.filter(([, ok]) => !ok);
console.log('\nSummary:');
for (const [name, ok, failures] of results) {
  console.log(`  ${ok ? 'ok  ' : 'FAIL'} ${name}`);
  for (const failure of failures) console.log(`         ${failure}`);
}
console.log(`suites: ${results.length - failed.length} passed, ${failed.length} failed`);
process.exit(failed.length ? 1 : 0);
