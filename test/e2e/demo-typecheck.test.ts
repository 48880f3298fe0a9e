/**
 * The demo is written the way a shop would write it, in plain JavaScript and JSX checked by TypeScript against
 * the BUILT package: the server against dist/*.d.ts, the React app against the published JSX typings
 * (`payin-checkout/react`). So this runs after the build, with demo/tsconfig.json.
 */
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const REPO = fileURLToPath(new URL('../../', import.meta.url));

describe('the demo', () => {
  it('typechecks against the built package and its JSX typings', () => {
    const tsc = spawnSync(process.execPath, ['node_modules/typescript/bin/tsc', '-p', 'demo/tsconfig.json'], {
      cwd: REPO,
      encoding: 'utf8',
      timeout: 60_000,
    });
    expect(tsc.stdout + tsc.stderr).toBe('');
    expect(tsc.status).toBe(0);
  });
});
