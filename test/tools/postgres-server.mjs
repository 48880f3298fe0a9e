// Finds PostgreSQL's server programs (initdb, postgres) for the PostgreSQL store's tests, which start a
// throwaway cluster of their own in a temporary folder on a free loopback port (never a system service on 5432).
// PG_BIN first (a folder holding initdb), then PATH, then Debian's /usr/lib/postgresql/<version>/bin, newest
// first. On a Debian machine without one, running as root, installs Debian's postgresql without letting the
// package start its own cluster; elsewhere throws with the one command to run. Never a silent skip.
import { existsSync, readdirSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import { ensureTool } from './apt.mjs';

const DEBIAN_ROOT = '/usr/lib/postgresql';

/** The folder that holds initdb and postgres, or undefined. */
export function findPostgresBin() {
  const fromEnv = process.env.PG_BIN;
  if (fromEnv) {
    if (existsSync(join(fromEnv, 'initdb'))) return fromEnv;
    throw new Error(`PG_BIN is set to ${fromEnv}, but there is no initdb in it.`);
  }
  for (const dir of (process.env.PATH ?? '').split(delimiter)) {
    if (dir && existsSync(join(dir, 'initdb')) && existsSync(join(dir, 'postgres'))) return dir;
  }
  if (!existsSync(DEBIAN_ROOT)) return undefined;
  const versions = readdirSync(DEBIAN_ROOT)
    .filter((name) => existsSync(join(DEBIAN_ROOT, name, 'bin', 'initdb')))
    .sort((a, b) => Number(b) - Number(a));
  return versions.length ? join(DEBIAN_ROOT, versions[0], 'bin') : undefined;
}

/** Returns the folder of PostgreSQL's programs, installing Debian's package when that is possible. */
export function ensurePostgres() {
  return ensureTool({
    find: findPostgresBin,
    pkg: 'postgresql',
    advice:
      'No PostgreSQL server programs (initdb, postgres) found for the PostgreSQL store tests. Install them and run again, e.g.\n' +
      '  sudo apt-get install -y --no-install-recommends postgresql\n' +
      '(or brew install postgresql), or point PG_BIN at the folder that holds initdb.',
  });
}
