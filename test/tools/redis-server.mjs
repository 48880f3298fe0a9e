// Finds redis-server for the Redis store's tests, which start their own server on a free loopback port (never
// a system service on 6379). REDIS_SERVER_PATH first, then PATH and the Debian path. On a Debian machine
// without one, running as root, installs Debian's redis-server (and says so) without letting the package start
// its own service; elsewhere throws with the one command to run. Never a silent skip.
import { existsSync } from 'node:fs';
import { ensureTool } from './apt.mjs';
import { delimiter, join } from 'node:path';

const DEBIAN_PATH = '/usr/bin/redis-server';

export function findRedisServer() {
  const fromEnv = process.env.REDIS_SERVER_PATH;
  if (fromEnv) {
    if (existsSync(fromEnv)) return fromEnv;
    throw new Error(`REDIS_SERVER_PATH is set to ${fromEnv}, but no file is there.`);
  }
  for (const dir of (process.env.PATH ?? '').split(delimiter)) {
    if (!dir) continue;
    const candidate = join(dir, 'redis-server');
    if (existsSync(candidate)) return candidate;
  }
  return existsSync(DEBIAN_PATH) ? DEBIAN_PATH : undefined;
}

/** Returns a redis-server path, installing Debian's package when that is possible; throws with advice otherwise. */
export function ensureRedisServer() {
  return ensureTool({
    find: findRedisServer,
    pkg: 'redis-server',
    advice:
      'No redis-server found for the Redis store tests. Install one and run again, e.g.\n' +
      '  sudo apt-get install -y --no-install-recommends redis-server\n' +
      '(or brew install redis), or point REDIS_SERVER_PATH at a redis-server binary.',
  });
}
