/**
 * The test command's one apt step on a busy machine: another apt or dpkg holds the lock (an unattended upgrade,
 * a second install). apt-get must wait for it instead of failing the whole run at once. Needs root on Debian,
 * as the apt step itself does; elsewhere the step only prints the command, and this test is skipped.
 */
import { spawn, spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
// @ts-expect-error: a plain .mjs tool of the test command, without typings
import { aptArguments, canAptInstall } from './apt.mjs';

const LOCK = '/var/lib/dpkg/lock-frontend';

describe('the apt step', () => {
  it.skipIf(!canAptInstall())(
    'waits for another dpkg that holds the lock, then installs',
    async () => {
      // Another "dpkg" holds the frontend lock (an fcntl lock, as apt takes it) for 2 s. apt-get cannot finish before
      // it is let go, so its run stays over the 1 s asserted below however slowly it starts.
      const holder = spawn('python3', [
        '-c',
        `import fcntl,sys,time\nf=open('${LOCK}','w')\nfcntl.lockf(f,fcntl.LOCK_EX)\nprint('held',flush=True)\ntime.sleep(2)`,
      ]);
      await new Promise<void>((resolve, reject) => {
        holder.stdout.once('data', () => resolve());
        holder.once('exit', (code) => reject(new Error(`the lock holder exited (${code}) before holding the lock`)));
      });
      // A package that is installed already: nothing is downloaded, only the lock is taken.
      const started = Date.now();
      const apt = spawnSync('apt-get', aptArguments(['install', '-y', '-q', '--no-install-recommends', 'python3']), {
        encoding: 'utf8',
        env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
        timeout: 60_000,
      });
      expect(apt.status, apt.stderr).toBe(0);
      expect(`${apt.stdout}${apt.stderr}`).toMatch(/lock/i); // it said it was waiting
      expect(Date.now() - started).toBeGreaterThan(1_000);
    },
    90_000,
  );
});
