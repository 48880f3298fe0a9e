// Finds Chrome or Chromium for the browser and end-to-end suites: CHROME_PATH first, then the usual install
// paths. On a Debian machine without one, running as root, installs Debian's chromium (and says so);
// elsewhere prints the one command to run and fails. Never a silent skip.
import { ensureTool, findTool } from './apt.mjs';

const CANDIDATES = [
  '/usr/lib/chromium/chromium', // Debian's binary without the wrapper's shell warning
  '/usr/bin/chromium',
  '/usr/bin/chromium-browser',
  '/usr/bin/google-chrome',
  '/usr/bin/google-chrome-stable',
  '/Applications/Google Chrome.app/Contents/MacOS/Google Chrome',
  '/Applications/Chromium.app/Contents/MacOS/Chromium',
];

export function findChrome() {
  return findTool('CHROME_PATH', CANDIDATES);
}

/** Returns a Chrome path, installing Debian's chromium when that is possible; throws with advice otherwise. */
export function ensureChrome() {
  return ensureTool({
    find: findChrome,
    pkg: 'chromium',
    advice:
      'No Chrome or Chromium found for the browser tests. Install one and run again, e.g.\n' +
      '  sudo apt-get install -y chromium\n' +
      'or point CHROME_PATH at your Chrome binary.',
  });
}

/** Flags every headless launch here needs (root, closed network, small /dev/shm). */
export const CHROME_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-dev-shm-usage',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--disable-quic',
];
