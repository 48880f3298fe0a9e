/**
 * The README's step 2 gives the proxy's credentials as lines of NAME=value, and says how they reach the server's
 * process: lines like these, pasted into a shell, set variables that no program started from it sees, so the
 * proxy would refuse to start for want of each. Used the way the step says (a .env file that Node reads with
 * --env-file), every one of the five arrives, its comment left out.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');
const step = readme.slice(readme.indexOf('**2. Give the proxy its credentials**'), readme.indexOf('**3. Create the proxy.**'));
const dir = mkdtempSync(join(tmpdir(), 'payin-env-file-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("the README's credentials", () => {
  it('reach a Node process the way step 2 says, each of the five with its value alone', () => {
    const lines = /```\w*\n([\s\S]*?)```/.exec(step)?.[1];
    expect(lines, 'the block of step 2').toBeDefined();
    const flag = /`node (--env-file=\.env)\b/.exec(step)?.[1];
    expect(flag, 'how step 2 hands the file to Node').toBeDefined();
    writeFileSync(join(dir, '.env'), lines!);
    const names = ['PAYIN_BASE_URL', 'PAYIN_MERCHANT_ID', 'PAYIN_TOKEN', 'PAYIN_SECRET', 'PAYIN_CALLBACK_URL'];
    const env = Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith('PAYIN_')));
    const run = spawnSync(
      process.execPath,
      [flag!, '-e', `console.log(JSON.stringify(${JSON.stringify(names)}.map((n) => process.env[n])))`],
      {
        cwd: dir,
        env,
        encoding: 'utf8',
        timeout: 20_000,
      },
    );
    expect(run.stderr).toBe('');
    expect(JSON.parse(run.stdout)).toEqual([
      'http://127.0.0.1:4010',
      'demo-merchant',
      'demo-token',
      'demo-secret',
      'http://127.0.0.1:3000/payin/callback',
    ]);
  });
});
