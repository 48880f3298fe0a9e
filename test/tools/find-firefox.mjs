// Finds Firefox for the cross-browser end-to-end test (WebDriver BiDi through puppeteer-core). FIREFOX_PATH
// first, then Debian's firefox-esr. On a Debian machine without one, running as root, it is installed by the test
// command's one apt-get step; elsewhere this throws with the command to run. Never a silent skip.
import { existsSync } from 'node:fs';
import { ensureTool } from './apt.mjs';

const CANDIDATES = ['/usr/lib/firefox-esr/firefox-esr', '/usr/bin/firefox-esr', '/usr/bin/firefox'];

export function findFirefox() {
  const fromEnv = process.env.FIREFOX_PATH;
  if (fromEnv) {
    if (existsSync(fromEnv)) return fromEnv;
    throw new Error(`FIREFOX_PATH is set to ${fromEnv}, but no file is there.`);
  }
  return CANDIDATES.find((path) => existsSync(path));
}

export function ensureFirefox() {
  return ensureTool({
    find: findFirefox,
    pkg: 'firefox-esr',
    advice:
      'No Firefox found for the cross-browser test. Install one and run again, e.g.\n' +
      '  sudo apt-get install -y --no-install-recommends firefox-esr\n' +
      'or point FIREFOX_PATH at a Firefox binary.',
  });
}
