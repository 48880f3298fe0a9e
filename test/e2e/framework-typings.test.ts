/**
 * The JSX typings for React and Preact and the template typings for Vue, as a shop's project sees them: the
 * files in test/typings import `payin-checkout/react`, `/preact` and `/vue` by package name (so this runs after
 * the build), use the element the way an app would, and mark with @ts-expect-error what the typings must refuse.
 */
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const REPO = fileURLToPath(new URL('../../', import.meta.url));

describe('the framework typings', () => {
  for (const framework of ['react', 'preact', 'vue']) {
    it(`type ${framework} usage of <payin-checkout> and refuse the wrong kinds`, () => {
      const tsc = spawnSync(process.execPath, ['node_modules/typescript/bin/tsc', '-p', `test/typings/tsconfig.${framework}.json`], {
        cwd: REPO,
        encoding: 'utf8',
        timeout: 60_000,
      });
      expect(tsc.stdout + tsc.stderr).toBe('');
      expect(tsc.status).toBe(0);
    });
  }
});
