/**
 * A SQLite ledger that the standalone server's process may not write, for real (EACCES, not a simulated read-only
 * connection): the files a SIGKILL left behind, owned by the user the killed process ran as, and a folder the
 * process may not create files in. SQLite's own words ("attempt to write a readonly database", "unable to open
 * database file") name neither the file nor the fix, and the file an operator then looks at (payin.db) is often
 * writable: the log must say which file is in the way and what to do. Root ignores file modes, so as root the server
 * runs as `nobody`, and the files are given to it as a service user's would be.
 */
import { spawn } from 'node:child_process';
import { chmodSync, chownSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useCompiledCli } from '../support/compiled-cli.js';
import { offlineStandaloneEnv } from '../support/standalone-env.js';

const build = useCompiledCli();
const asRoot = process.getuid?.() === 0;
/** The user the server runs as: `nobody` when the tests run as root (whom no file mode stops), else the tests' own. */
const NOBODY = 65534;
const serverUser = asRoot ? { uid: NOBODY, gid: NOBODY } : {};
let folders = 0;

/** Runs the standalone server on `file` until it listens (then stops it) or exits: everything it wrote. */
function runServer(file: string, user: { uid?: number; gid?: number }, killWithSigkill = false): Promise<string> {
  chmodSync(build.dir, 0o755); // a private temporary folder: the server's user must reach the build in it
  const child = spawn(process.execPath, [build.cli, 'proxy'], {
    env: { PATH: process.env.PATH ?? '', ...offlineStandaloneEnv(`sqlite:${file}`) },
    stdio: ['ignore', 'pipe', 'pipe'],
    ...user,
  });
  let output = '';
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`the server neither listened nor exited within 20 s:\n${output}`));
    }, 20_000);
    const read = (chunk: Buffer) => {
      output += chunk;
      if (output.includes('listening on')) child.kill(killWithSigkill ? 'SIGKILL' : 'SIGTERM');
    };
    child.stdout.on('data', read);
    child.stderr.on('data', read);
    child.once('exit', () => {
      clearTimeout(timer);
      resolve(output);
    });
  });
}

/** A folder of its own for one test, that the server's user may enter. */
function freshFolder(): string {
  const folder = join(build.dir, `ledger-${++folders}`);
  mkdirSync(folder);
  chmodSync(folder, 0o755);
  return folder;
}

describe('a SQLite ledger the server may not write', () => {
  it('names the -wal file a killed process left behind, and the fix, when the restarted server may not write it', async () => {
    const folder = freshFolder();
    const file = join(folder, 'payin.db');
    // The server run once as this user (an operator trying it as root) and killed: its writes are in payin.db-wal.
    await runServer(file, {}, true);
    if (asRoot) {
      // The service's user gets the folder and the database, as an operator's chown of payin.db gives them.
      chownSync(folder, NOBODY, NOBODY);
      chownSync(file, NOBODY, NOBODY);
    } else {
      chmodSync(`${file}-wal`, 0o444);
      chmodSync(`${file}-shm`, 0o444);
    }
    const output = await runServer(file, serverUser);
    expect(output).toContain('listening on');
    const unreachable = output.split('\n').find((line) => line.includes('store is unreachable')) ?? output;
    expect(unreachable).toContain(`${file}-wal`);
    expect(unreachable).toMatch(/this process may not write/);
    expect(unreachable).toMatch(/chown/);
  }, 60_000);

  it('names the folder it may not create the ledger in, and the fix', async () => {
    const folder = freshFolder();
    chmodSync(folder, 0o555);
    const output = await runServer(join(folder, 'payin.db'), serverUser);
    expect(output).toContain('the store could not be opened');
    expect(output).toContain(folder);
    expect(output).toMatch(/this process may not write/);
  }, 60_000);
});
