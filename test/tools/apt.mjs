// Installs Debian packages the test suites need, in one apt-get step (parallel apt calls fight over the dpkg
// lock, so this runs before any test worker starts). Only as root on a Debian machine; elsewhere the caller
// prints the command for the user instead. Packages' own services are kept from starting: the tests start
// their own servers on free loopback ports. Also how a tool is found (an environment variable, then the usual paths).
import { execFileSync } from 'node:child_process';
import { existsSync, rmSync, writeFileSync } from 'node:fs';

// Debian's invoke-rc.d asks this script whether a package may start its service; 101 means "no".
const POLICY_RC_D = '/usr/sbin/policy-rc.d';

export function canAptInstall() {
  return process.platform === 'linux' && process.getuid?.() === 0 && existsSync('/usr/bin/apt-get');
}

/** How long apt-get may wait for another apt or dpkg to let go of its lock (a busy machine installs for minutes). */
export const LOCK_WAIT_SECONDS = 20 * 60;
/** Each apt-get call as a whole, the lock wait included. */
const APT_CALL_LIMIT_MS = 45 * 60_000;

/** apt-get's arguments for `args`: it waits for the dpkg and lists locks instead of failing at once. */
export function aptArguments(args) {
  return ['-o', `DPkg::Lock::Timeout=${LOCK_WAIT_SECONDS}`, ...args];
}

export function aptInstall(packages) {
  if (packages.length === 0) return;
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  const ownPolicy = !existsSync(POLICY_RC_D);
  if (ownPolicy) writeFileSync(POLICY_RC_D, '#!/bin/sh\nexit 101\n', { mode: 0o755 });
  const run = (what, args) => {
    console.log(`apt-get ${what} (waits up to ${LOCK_WAIT_SECONDS / 60} min for another apt or dpkg to finish)...`);
    const started = Date.now();
    execFileSync('apt-get', aptArguments(args), { stdio: 'inherit', env, timeout: APT_CALL_LIMIT_MS });
    console.log(`apt-get ${what}: done in ${Math.round((Date.now() - started) / 1000)} s`);
  };
  try {
    run('update', ['update', '-qq']);
    run(`install ${packages.join(' ')}`, ['install', '-y', '-q', '--no-install-recommends', ...packages]);
  } finally {
    if (ownPolicy) rmSync(POLICY_RC_D, { force: true });
  }
}

/**
 * The first of `candidates` that exists, or undefined; the path in the environment variable `envName` first, and
 * when that is set, only it (a wrong path there is an error, never a silent fallback to another binary).
 */
export function findTool(envName, candidates) {
  const fromEnv = process.env[envName];
  if (fromEnv) {
    if (existsSync(fromEnv)) return fromEnv;
    throw new Error(`${envName} is set to ${fromEnv}, but no file is there.`);
  }
  return candidates.find((path) => existsSync(path));
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
