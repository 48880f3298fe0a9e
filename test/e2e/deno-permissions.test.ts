/**
 * The permissions docs/runtimes.md gives Deno are enough for what the guide builds on it: the proxy with the
 * durable SQLite store of the README's first integration (`sqlite:./payin.db`), which writes its file. Deno is
 * started from a scratch folder with exactly the flags the runtimes table names, opens a store there and writes
 * to it; a missing permission fails here as it would for the shop ("NotCapable: Requires write access").
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const folder = mkdtempSync(join(tmpdir(), 'payin-deno-'));

afterAll(() => rmSync(folder, { recursive: true, force: true }));

describe('Deno with the permissions docs/runtimes.md names', () => {
  it('opens and writes the SQLite store of the guide', () => {
    const row = readFileSync(join(ROOT, 'docs/runtimes.md'), 'utf8')
      .split('\n')
      .find((line) => line.startsWith('| Deno |'));
    const flags = [...(row ?? '').matchAll(/--allow-[a-z]+/g)].map(([flag]) => flag);
    expect(flags).toContain('--allow-net');
    const store = pathToFileURL(join(ROOT, 'dist/sqlite/index.js')).href;
    writeFileSync(
      join(folder, 'shop.js'),
      `import { createSqliteStore } from '${store}';
const store = createSqliteStore({ path: './payin.db' });
console.log(JSON.stringify(await store.ping()) ?? 'ok', store.driver ?? '');
await store.close();
`,
    );
    const run = spawnSync(join(ROOT, 'node_modules/.bin/deno'), ['run', ...flags, 'shop.js'], {
      cwd: folder,
      env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '/tmp', NO_COLOR: '1' },
      encoding: 'utf8',
      timeout: 60_000,
    });
    expect(run.stderr).toBe('');
    expect(run.stdout).toMatch(/^ok/);
    expect(run.status).toBe(0);
  }, 90_000);
});
