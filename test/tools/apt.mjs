// Installs Debian packages the test suites need, in one apt-get step (parallel apt calls fight over the dpkg
// lock, so this runs before any test worker starts). Only as root on a Debian machine; elsewhere the caller
// prints the command for the user instead. Packages' own services are kept from starting: the tests start
// their own servers on free loopback ports.
import { execFileSync } from 'node:child_process';
import { existsSync, rmSync, writeFileSync } from 'node:fs';

// Debian's invoke-rc.d asks this script whether a package may start its service; 101 means "no".
const POLICY_RC_D = '/usr/sbin/policy-rc.d';

export function canAptInstall() {
  return process.platform === 'linux' && process.getuid?.() === 0 && existsSync('/usr/bin/apt-get');
}

export function aptInstall(packages) {
  if (packages.length === 0) return;
  console.log(`Installing Debian packages for the tests: ${packages.join(' ')} (apt-get install)...`);
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  const ownPolicy = !existsSync(POLICY_RC_D);
  if (ownPolicy) writeFileSync(POLICY_RC_D, '#!/bin/sh\nexit 101\n', { mode: 0o755 });
  try {
    execFileSync('apt-get', ['update', '-qq'], { stdio: 'inherit', env, timeout: 300_000 });
    execFileSync('apt-get', ['install', '-y', '-qq', '--no-install-recommends', ...packages], { stdio: 'inherit', env, timeout: 600_000 });
  } finally {
    if (ownPolicy) rmSync(POLICY_RC_D, { force: true });
  }
}

/**
 * A tool's path from `find()`; when it is missing, installs Debian's `pkg` where that is possible, else throws
 * `advice` (the command for the user to run). Never a silent skip.
 */
export function ensureTool({ find, pkg, advice }) {
  const found = find();
  if (found) return found;
  if (!canAptInstall()) throw new Error(advice);
  aptInstall([pkg]);
  const installed = find();
  if (!installed) throw new Error(`apt-get installed ${pkg}, but no binary was found where the tests look for it.`);
  return installed;
}
