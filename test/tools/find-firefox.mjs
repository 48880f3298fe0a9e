// Finds Firefox for the cross-browser end-to-end test (WebDriver BiDi through puppeteer-core). FIREFOX_PATH
// first, then Debian's firefox-esr. On a Debian machine without one, running as root, it is installed by the test
// command's one apt-get step; elsewhere this throws with the command to run. Never a silent skip.
import { ensureTool, findTool } from './apt.mjs';

const CANDIDATES = ['/usr/lib/firefox-esr/firefox-esr', '/usr/bin/firefox-esr', '/usr/bin/firefox'];

export function findFirefox() {
  return findTool('FIREFOX_PATH', CANDIDATES);
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
