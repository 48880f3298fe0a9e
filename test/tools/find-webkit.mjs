// Finds WebKit for the WebKit end-to-end suite: WebKitWebDriver (Debian's webkit2gtk-driver, WebKitGTK's W3C
// WebDriver, which starts WebKit's MiniBrowser) and Xvfb, the X display it runs on where none is set. WEBKIT_DRIVER
// first. On a Debian machine without them, as root, the test command's one apt-get step installs both; elsewhere
// this throws with the command to run. Never a silent skip.
import { existsSync } from 'node:fs';
import { findTool } from './apt.mjs';

const DRIVERS = ['/usr/bin/WebKitWebDriver'];
const XVFB = ['/usr/bin/Xvfb'];
const ADVICE =
  'No WebKit found for the WebKit end-to-end suite. Install it and run again, e.g.\n' +
  '  sudo apt-get install -y --no-install-recommends webkit2gtk-driver xvfb\n' +
  'or point WEBKIT_DRIVER at a WebKitWebDriver binary (and set DISPLAY, or install Xvfb).';

export function findWebKitDriver() {
  return findTool('WEBKIT_DRIVER', DRIVERS);
}

export function findXvfb() {
  return XVFB.find((path) => existsSync(path));
}

/** The packages of the one apt step that are missing: WebKit's driver, and Xvfb unless a display is set. */
export function missingWebKitPackages() {
  return [!findWebKitDriver() && 'webkit2gtk-driver', !process.env.DISPLAY && !findXvfb() && 'xvfb'].filter(Boolean);
}

/** The driver's path, once both it and a display are there (after the apt step). */
export function ensureWebKit() {
  const driver = findWebKitDriver();
  if (!driver || (!process.env.DISPLAY && !findXvfb())) throw new Error(ADVICE);
  return driver;
}
