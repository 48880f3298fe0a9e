/**
 * The transport that Bun, Deno and workers use is their own fetch, whose redirects, aborts and body streams
 * differ from Node's: the fetch transport's tests run again on Bun and on Deno (the npm packages of both, as
 * test/sqlite/runtimes.test.ts runs the SQLite store's).
 */
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { root } from '../../support/compiled-cli.js';

const bin = (name: string) => join(root, 'node_modules/.bin', name);
const RUNTIMES = [
  { name: 'Bun', command: bin('bun'), args: ['--bun'] },
  { name: 'Deno', command: bin('deno'), args: ['run', '-A'] },
] as const;

describe.each(RUNTIMES)('on $name', ({ command, args }) => {
  it('the fetch transport passes its tests', () => {
    const run = spawnSync(
      command,
      [...args, join(root, 'node_modules/vitest/vitest.mjs'), 'run', 'test/proxy/infrastructure/fetch-transport.test.ts'],
      // Without vitest's own variables, which a nested vitest would take as its own.
      {
        cwd: root,
        env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '/tmp', NO_COLOR: '1' },
        encoding: 'utf8',
        timeout: 60_000,
      },
    );
    const output = run.stdout + run.stderr;
    expect(run.status, output).toBe(0);
    expect(output).toMatch(/Tests\s+\d+ passed/);
  }, 90_000);
});
